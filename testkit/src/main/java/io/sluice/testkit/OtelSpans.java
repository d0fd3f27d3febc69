package io.sluice.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;

import java.lang.reflect.Constructor;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.exporter.otlp.internal.HttpExporterBuilder;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.common.internal.StandardComponentId;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * Spans made by the OpenTelemetry Java SDK, collected as they end; the bodies its OTLP exporter
 * sends of them (its own marshaler, protobuf and JSON: real client bytes without a server); and
 * its OTLP/HTTP exporter itself, to send them to a gateway.
 */
public final class OtelSpans extends CollectingExporter<SpanData> implements SpanExporter, AutoCloseable {
    private final SdkTracerProvider provider;

    public OtelSpans(Attributes resource) {
        provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(resource)))
                .addSpanProcessor(SimpleSpanProcessor.create(this))
                .build();
    }

    public Tracer tracer() {
        return provider.get("io.sluice.test");
    }

    /** The spans ended so far, oldest first. */
    public List<SpanData> finished() {
        return kept();
    }

    /**
     * {@code count} server spans as the OpenTelemetry Java agent records handled HTTP requests
     * (its attributes, of typical lengths; a route, a path with an id, a browser's user agent),
     * under a service's resource as the SDK describes it: what a Collector batches.
     */
    public static List<SpanData> typicalServerSpans(int count) {
        try (OtelSpans sdk = new OtelSpans(Attributes.builder().put("service.name", "shop-api").put("service.version", "2.14.1")
                .put("deployment.environment.name", "production").put("host.name", "shop-api-7d9f8b6c4-x2kqz")
                .put("os.type", "linux").put("process.runtime.name", "OpenJDK Runtime Environment")
                .put("process.runtime.version", "17.0.12+7").build())) {
            Tracer tracer = sdk.tracer();
            for (int i = 0; i < count; i++) {
                io.opentelemetry.api.trace.Span span = tracer.spanBuilder("GET /api/orders/{id}")
                        .setSpanKind(io.opentelemetry.api.trace.SpanKind.SERVER).startSpan();
                span.setAttribute("http.request.method", "GET");
                span.setAttribute("http.route", "/api/orders/{id}");
                span.setAttribute("url.path", "/api/orders/" + (1_000_000 + i));
                span.setAttribute("url.scheme", "https");
                span.setAttribute("http.response.status_code", i % 50 == 0 ? 500L : 200L);
                span.setAttribute("server.address", "shop.example.com");
                span.setAttribute("server.port", 443L);
                span.setAttribute("network.protocol.version", "1.1");
                span.setAttribute("client.address", "203.0.113." + (i % 250));
                span.setAttribute("network.peer.address", "10.0.3." + (i % 250));
                span.setAttribute("network.peer.port", 40_000L + i % 20_000);
                span.setAttribute("user_agent.original", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                        + "Chrome/124.0.0.0 Safari/537.36");
                span.setAttribute("thread.id", 40L + i % 200);
                span.setAttribute("thread.name", "http-nio-8080-exec-" + (i % 200));
                span.end();
            }
            return sdk.finished();
        }
    }

    public static byte[] protobuf(Collection<SpanData> spans) {
        return body(spans, false);
    }

    public static byte[] json(Collection<SpanData> spans) {
        return body(spans, true);
    }

    private static byte[] body(Collection<SpanData> spans, boolean json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            TraceRequestMarshaler marshaler = TraceRequestMarshaler.create(spans);
            if (json) {
                marshaler.writeJsonTo(out);
            } else {
                marshaler.writeBinaryTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The SDK's OTLP/HTTP span exporter ({@code OtlpHttpSpanExporter}) sending to {@code endpoint}
     * (the full URL, {@code …/v1/traces}) with {@code Authorization: Bearer key}, in protobuf, or
     * in JSON (which the SDK's exporter can send, through the internal builder OTLP's JSON
     * logging exporters use), with gzip or none, and without retries: a test sees each answer.
     */
    public static SpanExporter exporter(String endpoint, String key, boolean json, String compression) {
        HttpExporterBuilder http = new HttpExporterBuilder(json ? StandardComponentId.ExporterType.OTLP_HTTP_JSON_SPAN_EXPORTER
                : StandardComponentId.ExporterType.OTLP_HTTP_SPAN_EXPORTER, endpoint);
        if (json) {
            http.exportAsJson();
        }
        OtlpHttpSpanExporterBuilder builder;
        try {
            Constructor<OtlpHttpSpanExporterBuilder> withDelegate = OtlpHttpSpanExporterBuilder.class
                    .getDeclaredConstructor(HttpExporterBuilder.class, MemoryMode.class);
            withDelegate.setAccessible(true);
            builder = withDelegate.newInstance(http, MemoryMode.IMMUTABLE_DATA);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this SDK version builds its exporter otherwise", e);
        }
        return builder.setEndpoint(endpoint).addHeader("Authorization", "Bearer " + key).setCompression(compression)
                .setTimeout(java.time.Duration.ofSeconds(60)) // a Collector-sized export on a busy test machine
                .setRetryPolicy(null).build();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        return keep(spans);
    }

    @Override
    public void close() {
        provider.close();
    }
}
