package io.sluice.bench;

import java.util.Map;

/** CPU seconds used so far by component, read at {@code nanos} ({@link System#nanoTime()}). */
record CpuSample(long nanos, Map<String, Double> seconds) {
    CpuSample {
        seconds = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(seconds));
    }
}
