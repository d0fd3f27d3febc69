package io.sluice.e2e.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.sluice.e2e.TestPipeline;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.OtelLogs;
import io.sluice.testkit.OtelMetrics;
import io.sluice.testkit.OtelSpans;
import io.sluice.testkit.RealEngines;

/**
 * The OpenTelemetry Java SDK's OTLP/HTTP exporter, pointed at a project's OTLP endpoint with its
 * key, reports handled requests and exceptions through gateway → Kafka → processor → ClickHouse:
 * server spans land in {@code transactions} and {@code traffic_1m} with their routes, status codes
 * and durations, exceptions in {@code errors} (one on a client span under its request's route), a
 * client span nowhere, and an export sent again (protobuf, then JSON) is counted once. A hostile
 * export, refused or stored within the limits, leaves the same project's next export exact.
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

    static TestPipeline pipeline;

    @BeforeAll
    static void startPipeline(Engines engines) throws Exception {
        pipeline = TestPipeline.named(NAME, engines, stateDir).with("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "200ms").start();
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
                AttributeKey.stringKey("deployment.environment.name"), "e2e", AttributeKey.stringKey("service.version"), "2.4.1"))) {
            Tracer tracer = sdk.tracer();
            serverSpan(tracer, "GET", "/orders/{id}", 200, START, 120).end(START + 120_000_000L, TimeUnit.NANOSECONDS);
            serverSpan(tracer, "GET", "/orders/{id}", 404, START, 8).end(START + 8_000_000L, TimeUnit.NANOSECONDS);
            Span failed = serverSpan(tracer, "POST", "/checkout", 503, START, 250);
            Span query = tracer.spanBuilder("SELECT orders").setSpanKind(SpanKind.CLIENT)
                    .setParent(Context.root().with(failed)).setStartTimestamp(START, TimeUnit.NANOSECONDS).startSpan();
            query.recordException(new java.util.concurrent.TimeoutException("the database did not answer"));
            query.end(START + 5_000_000L, TimeUnit.NANOSECONDS);
            failed.recordException(new IllegalStateException("the cart is gone"));
            failed.end(START + 250_000_000L, TimeUnit.NANOSECONDS);
            spans = sdk.finished();
        }
        // Accepted once the gateway knows the project (newProject waited for that): then sent once more as JSON, a retry.
        Await.until("the protobuf export accepted", ARRIVAL, true, () -> exportedOnce(exporter(project, false), spans));
        assertTrue(exportedOnce(exporter(project, true), spans));

        String where = " WHERE project = '" + project.token() + "'";
        // The resource's service.version is every event's release.
        String transactions = "GET /orders/{id}\t200\thttp.server\t120\t2.4.1\nGET /orders/{id}\t404\thttp.server\t8\t2.4.1\n"
                + "POST /checkout\t503\thttp.server\t250\t2.4.1";
        assertEquals(transactions, pipeline.awaitAnswer(transactions, "SELECT route, status_code, op, duration_ms, release FROM "
                + DB + ".transactions FINAL" + where + " ORDER BY route, status_code"));
        String traffic = "3\t1\t1\t1";
        assertEquals(traffic, pipeline.awaitAnswer(traffic, trafficQuery(project)));
        // The client span's exception is counted under the route of the request it was raised in.
        String errors = "java.lang.IllegalStateException\tthe cart is gone\te2e\tPOST /checkout\t2.4.1\n"
                + "java.util.concurrent.TimeoutException\tthe database did not answer\te2e\tPOST /checkout\t2.4.1";
        assertEquals(errors, pipeline.awaitAnswer(errors, "SELECT exception_type, exception_value, environment, route, release FROM "
                + DB + ".errors FINAL" + where + " ORDER BY exception_type"));
        String requests = "http.server\t2.4.1\t3";
        assertEquals(requests, pipeline.awaitAnswer(requests, "SELECT op, release, sum(requests) FROM " + DB
                + ".requests_1m FINAL" + where + " GROUP BY op, release"));
    }

    /**
     * A body the decoder cannot take (a span's name with an unpaired surrogate, which JSON can
     * escape and protobuf cannot hold) is refused whole with a 400 naming the field, and counted;
     * the project's next export is stored exactly as if it had not come.
     */
    @Test
    void anExportWithAnUnpairedSurrogateIsRefusedWith400AndTheProjectsNextExportArrivesExactly() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("otel-unpaired-surrogate");
        String trace = traceId();
        String hostile = otlpJson(serverSpanJson(trace, 1, "GET /caf\\ud800", "/caf\\ud800", 200, START, START + 5_000_000L, ""));

        HttpResponse<String> refused = pipeline.post(project, "otlp/v1/traces", hostile);
        assertTrue(exportedOnce(exporter(project, false), handledRequest()));

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals("{\"code\":3,\"message\":\"the body is not an OTLP/JSON ExportTraceServiceRequest: "
                + "'name' is not valid Unicode (an unpaired surrogate)\"}", refused.body());
        String transactions = "GET /orders/{id}\t200\t120";
        assertEquals(transactions, pipeline.awaitAnswer(transactions, "SELECT route, status_code, duration_ms FROM "
                + DB + ".transactions FINAL WHERE project = '" + project.token() + "'"));
        String traffic = "1\t1\t0\t0";
        assertEquals(traffic, pipeline.awaitAnswer(traffic, trafficQuery(project)));
        String outcomes = "accepted\t1\ninvalid_json\t1";
        assertEquals(outcomes, pipeline.awaitAnswer(outcomes, outcomesQuery(project)));
    }

    /**
     * Spans that are hostile but readable are stored within Sluice's limits, not refused: a
     * 100,000-character route is cut to the longest route (512), a span with a 500 KB attribute is
     * stored (the attribute stays in the raw event, no column holds it), a span that ends before
     * it starts has no duration but is counted; and the project's next export is stored exactly.
     */
    @Test
    void hugeAndBackwardSpansAreStoredWithinTheLimitsAndTheProjectsNextExportArrivesExactly() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("otel-hostile-spans");
        String trace = traceId();
        String hostile = otlpJson(
                serverSpanJson(trace, 1, "GET", "/" + "a".repeat(100_000), 200, START, START + 5_000_000L, ""),
                serverSpanJson(trace, 2, "GET", "/big", 200, START, START + 5_000_000L,
                        ", {\"key\": \"big\", \"value\": {\"stringValue\": \"" + "x".repeat(500_000) + "\"}}"),
                serverSpanJson(trace, 3, "GET", "/backwards", 500, START + 100_000_000L, START, ""));

        HttpResponse<String> stored = pipeline.post(project, "otlp/v1/traces", hostile);
        assertTrue(exportedOnce(exporter(project, false), handledRequest()));

        assertEquals(200, stored.statusCode(), stored.body());
        assertEquals("{}", stored.body(), "no partial success: every span was taken");
        String transactions = "GET /aaaaaaa\t512\t200\t5\nGET /backwar\t14\t500\t\\N\nGET /big\t8\t200\t5\n"
                + "GET /orders/\t16\t200\t120";
        assertEquals(transactions, pipeline.awaitAnswer(transactions, "SELECT left(route, 12), length(route), status_code, "
                + "duration_ms FROM " + DB + ".transactions FINAL WHERE project = '" + project.token() + "' ORDER BY route"));
        String traffic = "4\t3\t0\t1";
        assertEquals(traffic, pipeline.awaitAnswer(traffic, trafficQuery(project)));
        String outcomes = "accepted\t4";
        assertEquals(outcomes, pipeline.awaitAnswer(outcomes, outcomesQuery(project)));
    }

    /**
     * The SDK's log and metric exporters, pointed where OTEL_EXPORTER_OTLP_ENDPOINT makes them post,
     * report no failed export; an exception log, exported twice (a retry), lands once in
     * {@code errors} (no route: a log export holds no spans), the other log records and the metric
     * points only in the outcomes.
     */
    @Test
    void theSdksLogAndMetricExportersSucceedAndAnExceptionLogLandsOnceInErrors() throws Exception {
        ProjectAdmin.NewProject project = pipeline.newProject("otel-logs");
        List<LogRecordData> records;
        try (OtelLogs sdk = new OtelLogs(Attributes.of(AttributeKey.stringKey("deployment.environment.name"), "e2e"))) {
            sdk.logger().logRecordBuilder().setTimestamp(START, TimeUnit.NANOSECONDS).setSeverity(Severity.INFO)
                    .setBody("checkout started").emit();
            sdk.logger().logRecordBuilder().setTimestamp(START + 1_000_000L, TimeUnit.NANOSECONDS).setSeverity(Severity.ERROR)
                    .setBody("checkout failed")
                    .setAttribute(AttributeKey.stringKey("exception.type"), "java.lang.IllegalStateException")
                    .setAttribute(AttributeKey.stringKey("exception.message"), "the card was declined")
                    .setAttribute(AttributeKey.stringKey("exception.stacktrace"),
                            "java.lang.IllegalStateException: the card was declined\n\tat shop.Checkout.pay(Checkout.java:42)\n")
                    .emit();
            records = sdk.emitted();
        }
        List<MetricData> metrics;
        try (OtelMetrics sdk = new OtelMetrics(Attributes.of(AttributeKey.stringKey("deployment.environment.name"), "e2e"))) {
            sdk.meter().counterBuilder("orders").build().add(2);
            metrics = sdk.collect();
        }
        String logs = pipeline.url("/api/v1/" + project.token() + "/otlp/v1/logs");
        Await.until("the log export accepted", ARRIVAL, true, () -> succeeded(OtelLogs.exporter(logs, project.key(), "gzip")
                .export(records)));
        assertTrue(succeeded(OtelLogs.exporter(logs, project.key(), "none").export(records)), "the export, sent again");
        assertTrue(succeeded(OtelMetrics.exporter(pipeline.url("/api/v1/" + project.token() + "/otlp/v1/metrics"), project.key(),
                "gzip").export(metrics)));

        String where = " WHERE project = '" + project.token() + "'";
        String errors = "java.lang.IllegalStateException\tthe card was declined\te2e\t\t1";
        assertEquals(errors, pipeline.awaitAnswer(errors, "SELECT exception_type, exception_value, environment, route, count() FROM "
                + DB + ".errors" + where + " GROUP BY exception_type, exception_value, environment, route"));
        String perMinute = "1";
        assertEquals(perMinute, pipeline.awaitAnswer(perMinute, "SELECT sum(errors) FROM " + DB + ".errors_1m FINAL" + where));
        String outcomes = "accepted\t2\nunsupported_item:otlp_log\t2\nunsupported_item:otlp_metric\t1";
        assertEquals(outcomes, pipeline.awaitAnswer(outcomes, outcomesQuery(project)));
    }

    private static boolean succeeded(io.opentelemetry.sdk.common.CompletableResultCode export) {
        return export.join(30, TimeUnit.SECONDS).isSuccess();
    }

    /** The project's requests, and those answered 2xx, 4xx and 5xx, from {@code traffic_1m}. */
    private static String trafficQuery(ProjectAdmin.NewProject project) {
        return "SELECT sum(requests), sum(status_2xx), sum(status_4xx), sum(status_5xx) FROM " + DB + ".traffic_1m FINAL"
                + " WHERE project = '" + project.token() + "'";
    }

    /** The project's outcomes (accepted, or refused and why) and their events, from {@code outcomes_1m}. */
    private static String outcomesQuery(ProjectAdmin.NewProject project) {
        return "SELECT outcome, sum(events) FROM " + DB + ".outcomes_1m FINAL WHERE project = '" + project.token()
                + "' GROUP BY outcome ORDER BY outcome";
    }

    /** One handled request as the SDK makes it: GET /orders/{id} answered 200 in 120 ms. */
    private static List<SpanData> handledRequest() {
        try (OtelSpans sdk = new OtelSpans(Attributes.of(AttributeKey.stringKey("deployment.environment.name"), "e2e"))) {
            serverSpan(sdk.tracer(), "GET", "/orders/{id}", 200, START, 120).end(START + 120_000_000L, TimeUnit.NANOSECONDS);
            return sdk.finished();
        }
    }

    /** A new trace id, 32 hex digits: each test's spans are its own events. */
    private static String traceId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** An OTLP/JSON export of these spans, from a resource in environment e2e. */
    private static String otlpJson(String... spans) {
        return "{\"resourceSpans\": [{\"resource\": {\"attributes\": [{\"key\": \"deployment.environment.name\", "
                + "\"value\": {\"stringValue\": \"e2e\"}}]}, \"scopeSpans\": [{\"spans\": [" + String.join(", ", spans) + "]}]}]}";
    }

    /**
     * A server span in OTLP/JSON, named {@code name}, of a GET of {@code route} answered {@code status};
     * {@code moreAttributes} is written after its HTTP attributes as it is (JSON, from a comma).
     */
    private static String serverSpanJson(String traceId, int span, String name, String route, int status, long startNanos,
                                         long endNanos, String moreAttributes) {
        return "{\"traceId\": \"" + traceId + "\", \"spanId\": \"" + String.format("%016x", span) + "\", \"kind\": 2, "
                + "\"name\": \"" + name + "\", \"startTimeUnixNano\": \"" + startNanos + "\", \"endTimeUnixNano\": \"" + endNanos
                + "\", \"attributes\": [{\"key\": \"http.request.method\", \"value\": {\"stringValue\": \"GET\"}}, "
                + "{\"key\": \"http.route\", \"value\": {\"stringValue\": \"" + route + "\"}}, "
                + "{\"key\": \"http.response.status_code\", \"value\": {\"intValue\": \"" + status + "\"}}" + moreAttributes + "]}";
    }

    private static boolean exportedOnce(SpanExporter exporter, List<SpanData> spans) {
        try {
            return exporter.export(spans).join(30, TimeUnit.SECONDS).isSuccess();
        } finally {
            exporter.shutdown();
        }
    }
}
