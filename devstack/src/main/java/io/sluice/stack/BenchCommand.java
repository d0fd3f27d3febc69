package io.sluice.stack;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import io.sluice.bench.Bench;
import io.sluice.bench.ResultFiles;
import io.sluice.cli.CliCommand;
import io.sluice.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sluice bench [--seconds 10] [--profile] [--producer-experiments]}. */
@Command(name = "bench", description = {"Measure gateway, Kafka and processor against ceilings measured in the same run",
        "(needs wrk; asks before installing it with apt-get as root)."})
final class BenchCommand extends CliCommand {
    private final PrintStream out;
    @Option(names = "--seconds", paramLabel = "N", defaultValue = "10", description = "How long each measurement runs (default ${DEFAULT-VALUE}).")
    private String seconds;
    @Option(names = "--profile", description = "Record JFR of gateway and processor in bench-results/.")
    private boolean profile;
    @Option(names = "--producer-experiments", description = "Also measure the gateway at 64 and 256 connections with other "
            + "producer settings (linger 0 ms, fewer requests in flight); adds about a minute per variant.")
    private boolean producerExperiments;
    @Option(names = "--yes", description = "Install what is missing (wrk, with apt-get as root) without asking.")
    private boolean yes;
    private final ResultFiles files;

    /** @param files where the run writes; its log is already the one this JVM logs to */
    BenchCommand(PrintStream out, ResultFiles files) {
        this.out = out;
        this.files = files;
    }

    @Override
    public Integer call() {
        java.util.Optional<String> unsupported = io.sluice.engines.LocalPlatform.current().unsupported();
        if (unsupported.isPresent()) {
            out.println("✗ " + unsupported.get());
            return 2;
        }
        int duration;
        try {
            duration = Integer.parseInt(seconds);
        } catch (NumberFormatException e) {
            throw new UsageException("--seconds is a whole number");
        }
        try {
            if (!wrkInstalled() && !InstallConsent.given("wrk is not installed: install it with apt-get (as root)?", yes,
                    stdinIsTerminal(), new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out)) {
                throw new IllegalStateException("the bench needs wrk: apt-get install wrk (as root), or ./sluice bench --yes to install it");
            }
            new Bench(out, duration, profile, producerExperiments, files).run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the benchmark failed: " + e.getMessage(), e);
        }
        return 0;
    }

    /** Java 22+ gives a Console even when stdin is redirected; its isTerminal() then says false. */
    private static boolean stdinIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) { // before Java 22: a console means a terminal
            return true;
        }
    }

    private static boolean wrkInstalled() throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", "command -v wrk").start().waitFor() == 0;
    }
}
