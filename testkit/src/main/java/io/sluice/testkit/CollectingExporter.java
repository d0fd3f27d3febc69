package io.sluice.testkit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.opentelemetry.sdk.common.CompletableResultCode;

/**
 * What an SDK exporter of {@link OtelSpans}, {@link OtelLogs} or {@link OtelMetrics} is given,
 * kept for a test (which sends it with the SDK's real OTLP exporter); its {@code flush} and
 * {@code shutdown} serve each signal's exporter interface.
 */
abstract class CollectingExporter<T> {
    private final List<T> collected = new ArrayList<>();

    /** Keeps what an export was given. */
    final synchronized CompletableResultCode keep(Collection<T> exported) {
        collected.addAll(exported);
        return CompletableResultCode.ofSuccess();
    }

    /** What was kept so far, oldest first. */
    final synchronized List<T> kept() {
        return List.copyOf(collected);
    }

    final synchronized void forget() {
        collected.clear();
    }

    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
