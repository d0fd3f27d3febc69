package io.sluice.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/** {@code ./sluice} alone prints the usage; {@code ./sluice NAME} with no such command is a usage error (picocli's). */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
        description = {"The one command for running and operating Sluice.", "Configuration: SLUICE_* environment variables, see docs/configuration.md."},
        footer = {"", "./sluice help lists every command with its options; ./sluice COMMAND --help shows one."})
final class RootCommand implements Callable<Integer> {
    private final PrintStream out;
    private final String usage;

    RootCommand(PrintStream out, String usage) {
        this.out = out;
        this.usage = usage;
    }

    @Override
    public Integer call() {
        out.println(usage);
        return 0;
    }
}
