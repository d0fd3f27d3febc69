package io.sluice.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./sluice} alone prints the usage; {@code ./sluice NAME} with no such command is a usage error. */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
        description = {"The one command for running and operating Sluice.", "Configuration: SLUICE_* environment variables, see README.md."},
        footer = {"", "./sluice help lists every command with its options; ./sluice COMMAND --help shows one."})
final class RootCommand implements Callable<Integer> {
    private final PrintStream out;
    @Parameters(arity = "0..*", hidden = true)
    private List<String> unknown = new ArrayList<>();

    RootCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (!unknown.isEmpty()) {
            throw new UsageException("unknown command '" + unknown.get(0) + "'");
        }
        out.println(Usage.TEXT);
        return 0;
    }
}
