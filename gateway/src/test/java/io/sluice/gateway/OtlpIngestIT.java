package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.CodedInputStream;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.OtelLogs;
import io.sluice.testkit.OtelMetrics;
import io.sluice.testkit.OtelSpans;
import io.sluice.testkit.RealEngines;

/**
 * OTLP/HTTP as the OpenTelemetry Java SDK's exporter sends it (protobuf and JSON, gzip or not)
 * reaches Kafka as the v1 endpoints publish events: a server span as a transaction, an exception
 * as an error, other spans only counted; answers follow the OTLP/HTTP specification.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OtlpIngestIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    static TestGateway gateway;
    static Engines engines;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "200ms"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    static String endpoint(TestGateway gateway, ProjectAdmin.NewProject project) {
        return "http://127.0.0.1:" + gateway.port() + "/api/v1/" + project.token() + "/otlp/v1/traces";
    }

    /** Two server spans (200, and 500 with an exception) and a client span under the second. */
    static List<SpanData> handledRequests() {
        try (OtelSpans sdk = new OtelSpans(Attributes.of(AttributeKey.stringKey("service.name"), "shop",
                AttributeKey.stringKey("deployment.environment.name"), "production"))) {
            Tracer tracer = sdk.tracer();
            Span ok = tracer.spanBuilder("GET /users/{id}").setSpanKind(SpanKind.SERVER).startSpan();
            ok.setAttribute("http.request.method", "GET");
            ok.setAttribute("http.route", "/users/{id}");
            ok.setAttribute("http.response.status_code", 200L);
            ok.end();
            Span failed = tracer.spanBuilder("POST /checkout").setSpanKind(SpanKind.SERVER).startSpan();
            failed.setAttribute("http.request.method", "POST");
            failed.setAttribute("http.route", "/checkout");
            failed.setAttribute("http.response.status_code", 500L);
            Span query = tracer.spanBuilder("SELECT orders").setSpanKind(SpanKind.CLIENT).setParent(Context.root().with(failed))
                    .startSpan();
            query.end();
            failed.recordException(new IllegalStateException("card declined"));
            failed.end();
            return sdk.finished();
        }
    }

    static boolean export(SpanExporter exporter, List<SpanData> spans) {
        CompletableResultCode result = exporter.export(spans).join(30, TimeUnit.SECONDS);
        exporter.shutdown();
        return result.isSuccess();
    }

    static List<ConsumerRecord<byte[], byte[]>> published(String topic, ProjectAdmin.NewProject project, int expected) {
        return KafkaRecords.find(engines, topic, expected, Duration.ofSeconds(15),
                KafkaRecords.withHeader(EventHeaders.PROJECT, project.token()));
    }

    static List<String> eventIds(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(record -> KafkaRecords.header(record, EventHeaders.EVENT_ID)).sorted().toList();
    }

    static HttpResponse<String> post(ProjectAdmin.NewProject project, String contentType, byte[] body) {
        return gateway.postBytes(project, "otlp/v1/traces", body, "Content-Type", contentType);
    }

    @Test
    void theSdksProtobufExportPublishesServerSpansAndExceptionsAndCountsTheOtherSpan() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-protobuf");

        assertTrue(export(OtelSpans.exporter(endpoint(gateway, project), project.key(), false, "gzip"), handledRequests()));

        List<ConsumerRecord<byte[], byte[]>> transactions = published("sluice.transactions", project, 2);
        assertEquals(2, transactions.size());
        assertEquals("transaction", KafkaRecords.header(transactions.get(0), EventHeaders.ENDPOINT));
        List<ConsumerRecord<byte[], byte[]>> errors = published("sluice.errors", project, 1);
        assertEquals(1, errors.size());
        JsonNode error = JSON.readTree(errors.get(0).value());
        assertEquals("java.lang.IllegalStateException", error.at("/exception/values/0/type").textValue());
        assertEquals(Map.of("accepted", 3L, "unsupported_item:otlp_span", 1L),
                TestGateway.outcomes(engines, project, Map.of("accepted", 3L, "unsupported_item:otlp_span", 1L)));
    }

    @Test
    void theSdksJsonExportPublishesTheSameEvents() {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-json");
        List<SpanData> spans = handledRequests();

        assertTrue(export(OtelSpans.exporter(endpoint(gateway, project), project.key(), true, "none"), spans));

        assertEquals(2, published("sluice.transactions", project, 2).size());
        assertEquals(1, published("sluice.errors", project, 1).size());
    }

    @Test
    void aRetriedExportPublishesTheSameEventIdsAgain() {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-retried");
        List<SpanData> spans = handledRequests();

        assertTrue(export(OtelSpans.exporter(endpoint(gateway, project), project.key(), false, "none"), spans));
        assertTrue(export(OtelSpans.exporter(endpoint(gateway, project), project.key(), true, "gzip"), spans));

        List<String> ids = eventIds(published("sluice.transactions", project, 4));
        assertEquals(4, ids.size());
        assertEquals(2, ids.stream().distinct().count(), "the processor keeps one of each: " + ids);
    }

    @Test
    void aChunkedGzipBodyIsRead() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-chunked");
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
            gzip.write(OtelSpans.protobuf(handledRequests()));
        }
        byte[] body = gzipped.toByteArray();
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint(gateway, project)))
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/x-protobuf")
                .header("Content-Encoding", "gzip").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build(); // no length: chunked

        HttpResponse<String> response = TestGateway.send(request);

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("application/x-protobuf", response.headers().firstValue("Content-Type").orElse(""));
        assertEquals(2, published("sluice.transactions", project, 2).size());
    }

    @Test
    void aSpanThatCannotBeStoredIsNamedInAPartialSuccessAndTheOthersArePublished() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-partial");
        String body = """
                {"resourceSpans": [{"scopeSpans": [{"spans": [
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "kind": 2, "name": "GET /a",
                   "attributes": [{"key": "http.response.status_code", "value": {"intValue": "200"}}]},
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175", "kind": 2, "name": "GET /b",
                   "attributes": [{"key": "http.response.status_code", "value": {"intValue": "999"}}]},
                  {"traceId": "", "spanId": "eee19b7ec3c1b176", "kind": 2, "name": "GET /c"}
                ]}]}]}""";

        HttpResponse<String> response = post(project, "application/json", body.getBytes(StandardCharsets.UTF_8));

        assertEquals(200, response.statusCode(), response.body());
        JsonNode partial = JSON.readTree(response.body()).get("partialSuccess");
        assertEquals("2", partial.get("rejectedSpans").asText());
        assertTrue(partial.get("errorMessage").asText().contains("status code must be from 100 to 599, got 999"), response.body());
        assertEquals(1, published("sluice.transactions", project, 1).size());
    }

    @Test
    void aCollectorsDefaultBatchOf8192SpansIsAcceptedAndEverySpanPublished() {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-collector-batch");
        List<SpanData> spans = OtelSpans.typicalServerSpans(8192);

        assertTrue(export(OtelSpans.exporter(endpoint(gateway, project), project.key(), false, "gzip"), spans));

        List<String> ids = eventIds(KafkaRecords.upToEnd(engines, "sluice.transactions", Duration.ofSeconds(60),
                KafkaRecords.withHeader(EventHeaders.PROJECT, project.token())));
        assertEquals(8192, ids.size());
        assertEquals(8192, ids.stream().distinct().count());
    }

    @Test
    void partialSuccessCountsASpanOnceHoweverManyOfItsEventsWereNotStored() throws Exception {
        try (TestGateway stingy = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.01"))) {
            ProjectAdmin.NewProject project = stingy.newProject("otlp-rejected-spans", new Quota(1, 1));
            // The first span (the 200) takes the one event the quota has, at the head; the client span and the
            // 500 span (its transaction and error) are over it, each one rejected span.
            HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint(stingy, project)))
                    .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(OtelSpans.json(handledRequests()))).build();

            HttpResponse<String> response = TestGateway.send(request);

            assertEquals(200, response.statusCode(), response.body());
            JsonNode partial = JSON.readTree(response.body()).get("partialSuccess");
            assertEquals("2", partial.get("rejectedSpans").asText(), response.body());
            assertTrue(partial.get("errorMessage").asText().startsWith("2 spans were not stored in full: 2 spans or events over the "
                    + "project's quota"), response.body());
        }
    }

    @Test
    void hostileBodiesGet400WithAStatusAndBreakNothing() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-hostile");
        byte[] lyingLength = {0x0a, 0x7f, 0x12, 0x01};
        byte[] invalidUtf8 = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"name\": \"\u00e9\"}]}]}]}"
                .getBytes(StandardCharsets.ISO_8859_1);
        String deep = "{\"arrayValue\": {\"values\": [".repeat(500) + "]}}".repeat(500);
        byte[] deeplyNested = ("{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"attributes\": [{\"key\": \"k\", \"value\": "
                + deep + "}]}]}]}]}").getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> lying = post(project, "application/x-protobuf", lyingLength);
        HttpResponse<String> utf8 = post(project, "application/json", invalidUtf8);
        HttpResponse<String> nested = post(project, "application/json", deeplyNested);

        assertEquals(400, lying.statusCode());
        assertEquals(400, utf8.statusCode());
        assertTrue(JSON.readTree(utf8.body()).get("message").asText().contains("UTF-8"), utf8.body());
        assertEquals(400, nested.statusCode());
        assertEquals(3, JSON.readTree(nested.body()).get("code").asInt(), "INVALID_ARGUMENT: " + nested.body());
        assertTrue(export(OtelSpans.exporter(endpoint(gateway, project), project.key(), false, "none"), handledRequests()));
    }

    @Test
    void aHundredThousandSpansAreRefusedWith413() {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-many");
        StringBuilder spans = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            spans.append(i == 0 ? "" : ",").append("{\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"")
                    .append(String.format("%016x", i + 1)).append("\"}");
        }
        byte[] body = ("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + spans + "]}]}]}").getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> response = post(project, "application/json", body);

        assertEquals(413, response.statusCode(), response.body());
    }

    @Test
    void anotherContentTypeIs415AndAWrongKey401() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-refused");

        assertEquals(415, post(project, "text/plain", "x".getBytes(StandardCharsets.UTF_8)).statusCode());
        HttpResponse<String> wrongKey = TestGateway.send(HttpRequest.newBuilder(URI.create(endpoint(gateway, project)))
                .header("Authorization", "Bearer slk_wrong").header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofString("")).build());
        assertEquals(401, wrongKey.statusCode());
        assertEquals("application/x-protobuf", wrongKey.headers().firstValue("Content-Type").orElse(""),
                "refused from the head, in the request's encoding");
        CodedInputStream status = CodedInputStream.newInstance(wrongKey.body().getBytes(StandardCharsets.UTF_8)); // an ASCII message
        assertEquals(1 << 3, status.readTag());
        assertEquals(16, status.readInt32(), "UNAUTHENTICATED");
    }

    @Test
    void overItsQuotaAnExportGets429WithRetryAfter() throws Exception {
        try (TestGateway stingy = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.01"))) {
            ProjectAdmin.NewProject project = stingy.newProject("otlp-limited", new Quota(1, 1));
            byte[] body = OtelSpans.protobuf(handledRequests().subList(0, 1));
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint(stingy, project)))
                    .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/x-protobuf");

            HttpResponse<String> first = TestGateway.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
            HttpResponse<String> limited = TestGateway.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());

            assertEquals(200, first.statusCode(), first.body());
            assertEquals(429, limited.statusCode(), limited.body());
            assertTrue(limited.headers().firstValue("Retry-After").orElse("").matches("[0-9]+"), limited.headers().toString());
        }
    }

    static String endpoint(TestGateway gateway, ProjectAdmin.NewProject project, String signal) {
        return "http://127.0.0.1:" + gateway.port() + "/api/v1/" + project.token() + "/otlp/v1/" + signal;
    }

    /** Two records as the Java agent's log appender sends them (one with an exception, under a span) and a plain one. */
    static List<LogRecordData> loggedWhileHandlingARequest() {
        try (OtelLogs sdk = new OtelLogs(Attributes.of(AttributeKey.stringKey("service.name"), "shop"))) {
            SpanContext span = SpanContext.create("5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b174", TraceFlags.getSampled(),
                    TraceState.getDefault());
            IllegalStateException declined = new IllegalStateException("card declined");
            java.io.StringWriter stack = new java.io.StringWriter();
            declined.printStackTrace(new java.io.PrintWriter(stack));
            sdk.logger().logRecordBuilder().setSeverity(Severity.INFO).setBody("checkout started")
                    .setContext(Context.root().with(Span.wrap(span))).emit();
            sdk.logger().logRecordBuilder().setSeverity(Severity.ERROR).setBody("checkout failed")
                    .setContext(Context.root().with(Span.wrap(span)))
                    .setAttribute(AttributeKey.stringKey("exception.type"), declined.getClass().getName())
                    .setAttribute(AttributeKey.stringKey("exception.message"), declined.getMessage())
                    .setAttribute(AttributeKey.stringKey("exception.stacktrace"), stack.toString()).emit();
            sdk.logger().logRecordBuilder().setSeverity(Severity.INFO).setBody("checkout done").emit();
            return sdk.emitted();
        }
    }

    @Test
    void theSdksLogExporterPublishesAnExceptionLogAsOneErrorWhoseIdARetriedExportRepeats() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-logs");
        List<LogRecordData> records = loggedWhileHandlingARequest();

        for (String compression : new String[] {"none", "gzip"}) { // the same export, sent again
            LogRecordExporter exporter = OtelLogs.exporter(endpoint(gateway, project, "logs"), project.key(), compression);
            assertTrue(exporter.export(records).join(30, TimeUnit.SECONDS).isSuccess(), compression);
            exporter.shutdown();
        }

        List<ConsumerRecord<byte[], byte[]>> errors = published("sluice.errors", project, 2);
        assertEquals(2, errors.size());
        assertEquals(1, eventIds(errors).stream().distinct().count(), "the processor keeps one: " + eventIds(errors));
        JsonNode error = JSON.readTree(errors.get(0).value());
        assertEquals("java.lang.IllegalStateException", error.at("/exception/values/0/type").textValue());
        assertEquals("card declined", error.at("/exception/values/0/value").textValue());
        assertEquals("5b8efff798038103d269b633813fc60c", error.at("/contexts/trace/trace_id").textValue());
        assertEquals(Map.of("accepted", 2L, "unsupported_item:otlp_log", 4L),
                TestGateway.outcomes(engines, project, Map.of("accepted", 2L, "unsupported_item:otlp_log", 4L)));
    }

    @Test
    void theSdksMetricExporterGetsAMetricsResponseOfFullSuccessAndEachDataPointIsCounted() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-metrics");
        List<MetricData> metrics;
        try (OtelMetrics sdk = new OtelMetrics(Attributes.of(AttributeKey.stringKey("service.name"), "shop"))) {
            LongCounter orders = sdk.meter().counterBuilder("orders").build();
            orders.add(1, Attributes.of(AttributeKey.stringKey("status"), "paid"));
            orders.add(1, Attributes.of(AttributeKey.stringKey("status"), "declined"));
            sdk.meter().histogramBuilder("checkout.duration").build().record(0.25);
            metrics = sdk.collect();
        }
        MetricExporter exporter = OtelMetrics.exporter(endpoint(gateway, project, "metrics"), project.key(), "gzip");

        assertTrue(exporter.export(metrics).join(30, TimeUnit.SECONDS).isSuccess());
        exporter.shutdown();
        HttpResponse<String> answer = TestGateway.send(HttpRequest.newBuilder(URI.create(endpoint(gateway, project, "metrics")))
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(ExportMetricsServiceRequest.getDefaultInstance().toByteArray())).build());

        assertEquals(200, answer.statusCode());
        assertEquals("application/x-protobuf", answer.headers().firstValue("Content-Type").orElse(""));
        assertEquals("", answer.body(), "an ExportMetricsServiceResponse without partial_success: no field, no byte");
        assertEquals(Map.of("unsupported_item:otlp_metric", 3L),
                TestGateway.outcomes(engines, project, Map.of("unsupported_item:otlp_metric", 3L)));
    }
}
