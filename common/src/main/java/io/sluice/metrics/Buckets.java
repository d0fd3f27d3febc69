package io.sluice.metrics;

import java.time.Duration;

/** The fixed histogram buckets Sluice has always exposed, so dashboards and alerts keep their {@code le} values. */
public final class Buckets {
    /** 1 ms to 10 s. */
    public static final Duration[] LATENCY = seconds(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10);
    /** Counts of rows, 1 to 100,000. */
    public static final double[] SIZE = {1, 10, 100, 1_000, 5_000, 10_000, 20_000, 50_000, 100_000};

    private Buckets() {
    }

    private static Duration[] seconds(double... bounds) {
        Duration[] durations = new Duration[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            durations[i] = Duration.ofNanos(Math.round(bounds[i] * 1e9));
        }
        return durations;
    }
}
