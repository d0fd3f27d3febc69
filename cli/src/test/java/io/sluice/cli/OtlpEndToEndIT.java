package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.OtelSpans;
import io.sluice.testkit.RealEngines;

/**
 * The OpenTelemetry Java SDK's OTLP/HTTP exporter, pointed at a project's OTLP endpoint with its
 * key, reports handled requests and exceptions through gateway → Kafka → processor → ClickHouse:
 * server spans land in {@code transactions} and {@code traffic_1m} with their routes, status codes
 * and durations, an exception in {@code errors}, a client span nowhere, and an export sent again
 * (protobuf, then JSON) is counted once.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class OtlpEndToEndIT {
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    private static final String NAME = "otlp";
    private static final String DB = "sluice_" + NAME;
    private static final long START = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L; // a minute ago, in ns

    @TempDir
    static Path stateDir;

    static RunningPipeline pipeline;

    @BeforeAll
    static void startPipeline(Engines engines) throws Exception {
        pipeline = RunningPipeline.start(NAME, engines, stateDir, Map.of("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "200ms"));
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    static SpanExporter exporter(ProjectAdmin.NewProject project, boolean json) {
        // What OTEL_EXPORTER_OTLP_ENDPOINT=<gateway>/api/v1/<token>/otlp makes of it: the SDK appends /v1/traces.
        return OtelSpans.exporter(pipeline.url("/api/v1/" + project.token() + "/otlp/v1/traces"), project.key(), json, "gzip");
    }

    static Span serverSpan(Tracer tracer, String method, String route, long status, long startNanos, long millis) {
        Span span = tracer.spanBuilder(method + " " + route).setSpanKind(SpanKind.SERVER)
                .setStartTimestamp(startNanos, TimeUnit.NANOSECONDS).startSpan();
        span.setAttribute("http.request.method", method);
        span.setAttribute("http.route", route);
        span.setAttribute("http.response.status_code", status);
        return span;
    }

    @Test
    void serverSpansAndAnExceptionOfTheSdkReachClickHouseOnceEvenWhenExportedTwice() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("otel-sdk");
        List<SpanData> spans;
        try (OtelSpans sdk = new OtelSpans(Attributes.of(AttributeKey.stringKey("service.name"), "shop",
                AttributeKey.stringKey("deployment.environment.name"), "e2e"))) {
            Tracer tracer = sdk.tracer();
            serverSpan(tracer, "GET", "/orders/{id}", 200, START, 120).end(START + 120_000_000L, TimeUnit.NANOSECONDS);
            serverSpan(tracer, "GET", "/orders/{id}", 404, START, 8).end(START + 8_000_000L, TimeUnit.NANOSECONDS);
            Span failed = serverSpan(tracer, "POST", "/checkout", 503, START, 250);
            Span query = tracer.spanBuilder("SELECT orders").setSpanKind(SpanKind.CLIENT)
                    .setParent(Context.root().with(failed)).setStartTimestamp(START, TimeUnit.NANOSECONDS).startSpan();
            query.end(START + 5_000_000L, TimeUnit.NANOSECONDS);
            failed.recordException(new IllegalStateException("the cart is gone"));
            failed.end(START + 250_000_000L, TimeUnit.NANOSECONDS);
            spans = sdk.finished();
        }
        // Accepted once the gateway knows the project (newProject waited for that): then sent once more as JSON, a retry.
        Await.until("the protobuf export accepted", ARRIVAL, true, () -> exportedOnce(exporter(project, false), spans));
        assertTrue(exportedOnce(exporter(project, true), spans));

        String where = " WHERE project = '" + project.token() + "'";
        String transactions = "GET /orders/{id}\t200\thttp.server\t120\nGET /orders/{id}\t404\thttp.server\t8\n"
                + "POST /checkout\t503\thttp.server\t250";
        assertEquals(transactions, pipeline.awaitAnswer(transactions, "SELECT route, status_code, op, duration_ms FROM "
                + DB + ".transactions FINAL" + where + " ORDER BY route, status_code"));
        String traffic = "3\t1\t1\t1";
        assertEquals(traffic, pipeline.awaitAnswer(traffic, trafficQuery(project)));
        String errors = "java.lang.IllegalStateException\tthe cart is gone\te2e\tPOST /checkout";
        assertEquals(errors, pipeline.awaitAnswer(errors, "SELECT exception_type, exception_value, environment, route FROM "
                + DB + ".errors FINAL" + where));
        String requests = "http.server\t3";
        assertEquals(requests, pipeline.awaitAnswer(requests, "SELECT op, sum(requests) FROM " + DB
                + ".requests_1m FINAL" + where + " GROUP BY op"));
    }

    /** The project's requests, and those answered 2xx, 4xx and 5xx, from {@code traffic_1m}. */
    private static String trafficQuery(ProjectAdmin.NewProject project) {
        return "SELECT sum(requests), sum(status_2xx), sum(status_4xx), sum(status_5xx) FROM " + DB + ".traffic_1m FINAL"
                + " WHERE project = '" + project.token() + "'";
    }

    private static boolean exportedOnce(SpanExporter exporter, List<SpanData> spans) {
        try {
            return exporter.export(spans).join(30, TimeUnit.SECONDS).isSuccess();
        } finally {
            exporter.shutdown();
        }
    }
}
