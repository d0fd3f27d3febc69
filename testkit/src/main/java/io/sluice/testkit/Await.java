package io.sluice.testkit;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/** Waits, bounded, for an asynchronous pipeline to reach an expected state. */
public final class Await {
    private static final long POLL_MILLIS = 100;

    private Await() {
    }

    /**
     * Polls {@code actual} until it equals {@code expected} and returns it; fails when the time
     * runs out, naming what was awaited (the calling line), the expected and the last value seen.
     */
    public static <T> T until(Duration timeout, T expected, Supplier<T> actual) {
        return until(caller(), timeout, expected, actual);
    }

    /** As {@link #until(Duration, Object, Supplier)}, with {@code what} naming what is awaited. */
    public static <T> T until(String what, Duration timeout, T expected, Supplier<T> actual) {
        Polled<T> polled = poll(timeout, expected, actual);
        if (!polled.reached()) {
            throw new AssertionFailedError("awaited " + what + " for " + polled.waited().toMillis() + " ms: expected <"
                    + expected + "> but the last value was <" + polled.last() + ">", expected, polled.last());
        }
        return polled.last();
    }

    /**
     * Waits up to {@code timeout} for {@code actual} to equal {@code expected}, then returns the last
     * value seen <em>without failing</em>: for a caller that asserts on what it then looks at with a
     * better message than a timeout could give (e.g. which event ids are missing). A caller that does
     * not assert on the returned value (or on what it stands for) asserts nothing.
     */
    public static <T> T waitThenLook(Duration timeout, T expected, Supplier<T> actual) {
        return poll(timeout, expected, actual).last();
    }

    private static <T> Polled<T> poll(Duration timeout, T expected, Supplier<T> actual) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        T last = actual.get();
        while (!Objects.equals(expected, last) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionFailedError("interrupted while awaiting <" + expected + ">; last value <" + last + ">");
            }
            last = actual.get();
        }
        return new Polled<>(Objects.equals(expected, last), last, Duration.ofNanos(System.nanoTime() - start));
    }

    /** The line that called {@code until}: what a reader of the failure opens to see what was awaited. */
    private static String caller() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(frame -> !frame.getClassName().equals(Await.class.getName()))
                .findFirst()
                .map(frame -> "the condition at " + frame.getClassName() + "." + frame.getMethodName()
                        + "(" + frame.getFileName() + ":" + frame.getLineNumber() + ")")
                .orElse("a condition"));
    }

    private record Polled<T>(boolean reached, T last, Duration waited) {
    }
}
