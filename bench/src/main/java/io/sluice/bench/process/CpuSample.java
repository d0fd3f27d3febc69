package io.sluice.bench.process;

import java.util.Map;

/** CPU seconds used so far by component, read at {@code nanos} ({@link System#nanoTime()}). */
public record CpuSample(long nanos, Map<String, Double> seconds) {
    public CpuSample {
        seconds = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(seconds));
    }
}
