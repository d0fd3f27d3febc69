package io.sluice.gateway.otlp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * Spans made by the OpenTelemetry Java SDK, and the bodies its OTLP exporter sends of them
 * (its own marshaler, protobuf and JSON): real client bytes without a server.
 */
final class SdkSpans implements SpanExporter, AutoCloseable {
    private final List<SpanData> finished = new ArrayList<>();
    private final SdkTracerProvider provider;

    SdkSpans(Attributes resource) {
        provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(resource)))
                .addSpanProcessor(SimpleSpanProcessor.create(this))
                .build();
    }

    Tracer tracer() {
        return provider.get("io.sluice.test");
    }

    /** The spans ended so far, oldest first. */
    synchronized List<SpanData> finished() {
        return List.copyOf(finished);
    }

    static byte[] protobuf(Collection<SpanData> spans) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            TraceRequestMarshaler.create(spans).writeBinaryTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] json(Collection<SpanData> spans) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            TraceRequestMarshaler.create(spans).writeJsonTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Override
    public synchronized CompletableResultCode export(Collection<SpanData> spans) {
        finished.addAll(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public void close() {
        provider.close();
    }
}
