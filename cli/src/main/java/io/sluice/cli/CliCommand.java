package io.sluice.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Option;

/**
 * One {@code ./sluice} command for picocli: {@link #call} returns the exit code (0 done, 1 failed);
 * a {@link UsageException} means called wrongly (2). Every command answers {@code --help}.
 */
public abstract class CliCommand implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;
}
