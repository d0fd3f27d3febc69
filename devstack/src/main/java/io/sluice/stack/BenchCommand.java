package io.sluice.stack;

import java.io.PrintStream;

import io.sluice.bench.Bench;
import io.sluice.cli.Args;
import io.sluice.cli.Command;

/** {@code ./sluice bench [--seconds 10] [--profile]}. */
final class BenchCommand implements Command {
    private final PrintStream out;

    BenchCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public int run(Args args) {
        int seconds;
        try {
            seconds = Integer.parseInt(args.option("seconds", "10"));
        } catch (NumberFormatException e) {
            throw new Args.UsageException("--seconds is a whole number");
        }
        try {
            new Bench(out, seconds, args.flag("profile")).run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the benchmark failed: " + e.getMessage(), e);
        }
        return 0;
    }
}
