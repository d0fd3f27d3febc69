package io.sluice.cli;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.sluice.config.Settings;
import io.sluice.projects.ProjectAdmin;

/**
 * {@code ./sluice}: the one command for running and operating Sluice. Finds the command by name and
 * turns its outcome into an exit code: 0 done, 1 failed (the message says why), 2 called wrongly
 * (the usage is printed).
 */
public final class SluiceCli {
    private final PrintStream err;
    private final Map<String, Command> commands;

    /** The server's commands only. */
    public SluiceCli(Settings settings, PrintStream out, PrintStream err) {
        this(settings, out, err, Extension.NONE);
    }

    public SluiceCli(Settings settings, PrintStream out, PrintStream err, Extension extension) {
        this.err = err;
        Map<String, Command> all = new HashMap<>(ServerCommands.create(settings, out, extension.settings()));
        all.putAll(extension.commands(settings, out));
        this.commands = Map.copyOf(all);
    }

    public static void main(String[] argv) {
        launch(argv, Extension.NONE);
    }

    /** Runs one command line in this JVM and exits with its code, unless a server keeps running. */
    public static void launch(String[] argv, Extension extension) {
        String name = argv.length == 0 ? "help" : argv[0];
        Logging.configure(name);
        SluiceCli cli = new SluiceCli(Settings.fromEnvironment(), System.out, System.err, extension);
        int exitCode = cli.run(argv);
        Command command = cli.commands.get(name);
        if (exitCode != 0 || command == null || !command.keepsRunning()) {
            System.exit(exitCode);
        }
    }

    public int run(String[] argv) {
        try {
            Args args = Args.parse(argv, Set.of("json", "reset", "help", "dry-run", "profile"));
            String name = args.positional(0) == null ? "help" : args.positional(0);
            Command command = commands.get(name);
            if (command == null) {
                throw new Args.UsageException("unknown command '" + name + "'");
            }
            return command.run(args);
        } catch (Args.UsageException e) {
            err.println("sluice: " + e.getMessage());
            err.println(Usage.TEXT);
            return 2;
        } catch (ProjectAdmin.UnknownProjectException | ProjectAdmin.UnknownKeyException e) {
            err.println("sluice: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (Exception e) {
            err.println("sluice: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            return 1;
        }
    }
}
