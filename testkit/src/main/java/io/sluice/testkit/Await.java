package io.sluice.testkit;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/** Waits, bounded, for an asynchronous pipeline to reach an expected state. */
public final class Await {
    private Await() {
    }

    /**
     * Polls {@code actual} until it equals {@code expected}; returns the last value seen, so the
     * caller's assertEquals reports the difference when the time runs out.
     */
    public static <T> T until(Duration timeout, T expected, Supplier<T> actual) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = actual.get();
        while (!Objects.equals(expected, last) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            last = actual.get();
        }
        return last;
    }
}
