package io.sluice.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.config.Settings;
import io.sluice.fatal.FatalErrors;
import io.sluice.projects.ProjectAdmin;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * {@code ./sluice}: the one command for running and operating Sluice, declared with picocli. Turns a
 * command's outcome into an exit code: 0 done, 1 failed (the message says why), 2 called wrongly
 * (unknown command or option, missing argument: one line, with a suggestion for a typo).
 */
public final class SluiceCli {
    private static final List<String> DEVELOPER_COMMANDS = List.of("dev", "bench");
    private static final String USAGE_SECTION = "sluiceUsage";

    private final PrintStream err;
    private final CommandLine commandLine;
    private final String usage;

    /** The server's commands only. */
    public SluiceCli(Settings settings, PrintStream out, PrintStream err) {
        this(settings, out, err, Extension.NONE);
    }

    public SluiceCli(Settings settings, PrintStream out, PrintStream err, Extension extension) {
        this.err = err;
        this.usage = Usage.with(extension);
        Map<String, Object> commands = new LinkedHashMap<>(ServerCommands.create(settings, out, extension.settings(), usage));
        commands.putAll(extension.commands(settings, out));
        for (String name : DEVELOPER_COMMANDS) {
            commands.putIfAbsent(name, new ServerCommands.DeveloperOnlyCommand(name));
        }
        commandLine = new CommandLine(new RootCommand(out, usage));
        commands.forEach(commandLine::addSubcommand);
        // One source of help: --help prints what help prints (set on the root's spec only, not its subcommands).
        var usageMessage = commandLine.getCommandSpec().usageMessage();
        usageMessage.sectionMap().put(USAGE_SECTION, help -> usage + "\n");
        usageMessage.sectionKeys(List.of(USAGE_SECTION));
        commandLine.setExpandAtFiles(false); // an argument starting with @ is a value, never a file to read arguments from
        inDeclaredOrder(commandLine);
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        commandLine.setParameterExceptionHandler((e, args) -> usageError(CalledWrongly.message(e), e.getCommandLine()));
        commandLine.setExecutionExceptionHandler((e, command, parsed) -> failed(e, command));
        commandLine.setExecutionStrategy(parsed -> {
            CalledWrongly.refuseUnmatched(parsed); // picocli lets them pass when --help is among them
            return new CommandLine.RunLast().execute(parsed);
        });
    }

    public static void main(String[] argv) {
        launch(argv, Extension.NONE);
    }

    /** Runs one command line in this JVM and exits with its code, unless a server keeps running. */
    public static void launch(String[] argv, Extension extension) {
        FatalErrors.install(); // out of memory anywhere: exit, so that a supervisor restarts the server
        String name = argv.length == 0 ? "help" : argv[0];
        Settings settings = Settings.fromEnvironment();
        try {
            Path file = extension.logFile(name, settings);
            Logging.apply(LogSettings.from(settings, name, file));
        } catch (RuntimeException e) { // a wrong SLUICE_LOG_* value, a log directory that cannot be made
            System.err.println("sluice: " + e.getMessage());
            System.exit(1);
        }
        SluiceCli cli = new SluiceCli(settings, System.out, System.err, extension);
        int exitCode = cli.run(argv);
        if (exitCode != 0 || !cli.keepsRunning()) {
            System.exit(exitCode);
        }
    }

    public int run(String[] argv) {
        return commandLine.execute(argv);
    }

    /** The command tree: {@code sluice} and its subcommands (for help and tests). */
    public CommandLine commandLine() {
        return commandLine;
    }

    /** True when the command just run returned while its work goes on (a server). */
    private boolean keepsRunning() {
        ParseResult parsed = commandLine.getParseResult();
        while (parsed != null && parsed.subcommand() != null) {
            parsed = parsed.subcommand();
        }
        return parsed != null && parsed.commandSpec().userObject() instanceof LongRunning
                && !parsed.isUsageHelpRequested() && !parsed.isVersionHelpRequested();
    }

    /** Help lists options as the command declares them (--name before --rate), not alphabetically. */
    private static void inDeclaredOrder(CommandLine command) {
        command.getCommandSpec().usageMessage().sortOptions(false);
        command.getSubcommands().values().forEach(SluiceCli::inDeclaredOrder);
    }

    /** One line: what was wrong and where to look, not the whole usage. */
    private int usageError(String message, CommandLine command) {
        err.println("sluice: " + message + " (" + CalledWrongly.whereToLook(command) + ")");
        return 2;
    }

    private int failed(Exception e, CommandLine command) {
        if (e instanceof UsageException) {
            return usageError(e.getMessage(), command);
        }
        if (e instanceof ProjectAdmin.UnknownProjectException || e instanceof ProjectAdmin.UnknownKeyException) {
            err.println("sluice: " + e.getMessage());
            return 1;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return 1;
        }
        err.println("sluice: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
        return 1;
    }
}
