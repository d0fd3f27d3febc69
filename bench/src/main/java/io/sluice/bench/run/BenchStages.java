package io.sluice.bench.run;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * Runs the bench's stages in order and prints each one's figure as soon as it is measured. The first
 * stage that fails is remembered by name and every stage after it is skipped, so that the report is
 * still written with what the stages before it measured.
 */
public final class BenchStages {
    /** The stage that did not finish, and the error it ended with. */
    public record Failure(String stage, String error) {
    }

    private final PrintStream out;
    private String failedStage;
    private Exception cause;

    public BenchStages(PrintStream out) {
        this.out = out;
    }

    /**
     * Prints the stage's name, measures, prints {@code figure} of the result and returns it; null
     * when this stage fails or an earlier one did.
     */
    public <T> T run(String stage, Callable<T> measure, Function<T, String> figure) {
        if (cause != null) {
            return null;
        }
        out.println("· " + stage);
        try {
            T result = measure.call();
            out.println("  " + figure.apply(result));
            return result;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            failedStage = stage;
            cause = e;
            out.println("  FAILED: " + e);
            return null;
        }
    }

    /** The stage that failed, or null when every stage finished. */
    public Failure failure() {
        return cause == null ? null : new Failure(failedStage, cause.toString());
    }

    /** After the report is written: the run fails with the stage's own error. */
    public void throwIfFailed() throws Exception {
        if (cause != null) {
            throw new IllegalStateException("the bench stopped at the stage \"" + failedStage + "\"", cause);
        }
    }
}
