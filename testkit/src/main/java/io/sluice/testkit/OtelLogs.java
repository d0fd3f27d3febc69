package io.sluice.testkit;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;

/**
 * Log records made by the OpenTelemetry Java SDK, collected as they are emitted, and its OTLP/HTTP
 * log record exporter, to send them to a gateway (as {@link OtelSpans} does for spans).
 */
public final class OtelLogs extends CollectingExporter<LogRecordData> implements LogRecordExporter, AutoCloseable {
    private final SdkLoggerProvider provider;

    public OtelLogs(Attributes resource) {
        provider = SdkLoggerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(resource)))
                .addLogRecordProcessor(SimpleLogRecordProcessor.create(this))
                .build();
    }

    public Logger logger() {
        return provider.get("io.sluice.test");
    }

    /** The records emitted so far, oldest first. */
    public List<LogRecordData> emitted() {
        return kept();
    }

    /**
     * The SDK's OTLP/HTTP log record exporter ({@code OtlpHttpLogRecordExporter}, protobuf) sending to
     * {@code endpoint} (the full URL, {@code …/v1/logs}) with {@code Authorization: Bearer key}, with
     * gzip or none, and without retries: a test sees each answer.
     */
    public static LogRecordExporter exporter(String endpoint, String key, String compression) {
        return OtlpHttpLogRecordExporter.builder().setEndpoint(endpoint).addHeader("Authorization", "Bearer " + key)
                .setCompression(compression).setTimeout(Duration.ofSeconds(60)).setRetryPolicy(null).build();
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> records) {
        return keep(records);
    }

    @Override
    public void close() {
        provider.close();
    }
}
