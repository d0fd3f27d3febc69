package io.sluice.metrics;

import java.time.Duration;

/**
 * The last value a measurement gave and when. A measurement that fails (Kafka unreachable) leaves
 * the value as it was, so a gauge of it alone would show a stale number as if current: the age
 * of the value says how long ago it was true, and an alert rule can tell "unknown" from "fine".
 */
public final class LastMeasurement {
    private volatile long value;
    /** When the value was measured; before the first measurement, when this was created. */
    private volatile long measuredNanos = System.nanoTime();

    /** A measurement succeeded. */
    public void measured(long newValue) {
        value = newValue;
        measuredNanos = System.nanoTime();
    }

    public long value() {
        return value;
    }

    public Duration age() {
        return Duration.ofNanos(System.nanoTime() - measuredNanos);
    }

    /** The age for a gauge, in seconds with millisecond precision. */
    public double ageSeconds() {
        return age().toMillis() / 1000.0;
    }
}
