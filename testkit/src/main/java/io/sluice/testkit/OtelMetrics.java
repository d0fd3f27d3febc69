package io.sluice.testkit;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;

/**
 * Metrics recorded with the OpenTelemetry Java SDK, collected when asked ({@link #collect()}), and
 * its OTLP/HTTP metric exporter, to send them to a gateway (as {@link OtelSpans} does for spans).
 */
public final class OtelMetrics extends CollectingExporter<MetricData> implements MetricExporter, AutoCloseable {
    private final SdkMeterProvider provider;

    public OtelMetrics(Attributes resource) {
        provider = SdkMeterProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(resource)))
                .registerMetricReader(PeriodicMetricReader.builder(this).setInterval(Duration.ofDays(1)).build())
                .build();
    }

    public Meter meter() {
        return provider.get("io.sluice.test");
    }

    /** The metrics recorded so far, as the SDK's reader collects them for an export. */
    public List<MetricData> collect() {
        forget();
        provider.forceFlush().join(30, TimeUnit.SECONDS); // exports to this, perhaps on the reader's thread
        return kept();
    }

    /**
     * The SDK's OTLP/HTTP metric exporter ({@code OtlpHttpMetricExporter}, protobuf) sending to
     * {@code endpoint} (the full URL, {@code …/v1/metrics}) with {@code Authorization: Bearer key},
     * with gzip or none, and without retries: a test sees each answer.
     */
    public static MetricExporter exporter(String endpoint, String key, String compression) {
        return OtlpHttpMetricExporter.builder().setEndpoint(endpoint).addHeader("Authorization", "Bearer " + key)
                .setCompression(compression).setTimeout(Duration.ofSeconds(60)).setRetryPolicy(null).build();
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
        return keep(metrics);
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public void close() {
        provider.close();
    }
}
