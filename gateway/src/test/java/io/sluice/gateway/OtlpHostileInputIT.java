package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.OtelSpans;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * What a tenant's hostile exporter sends the OTLP door, through the running gateway: each body is
 * answered quickly, holds nothing once answered, and another project's ordinary export is answered
 * right after, within a second.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OtlpHostileInputIT {
    /** Far beyond what the fixed reading takes, far below what the hostile bodies took (43 s; 144 MB held). */
    private static final Duration QUICKLY = Duration.ofSeconds(5);

    static TestGateway gateway;
    static ProjectAdmin.NewProject attacker;
    static ProjectAdmin.NewProject bystander;
    static ProjectAdmin.NewProject exporter;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        gateway = TestGateway.start(engines, Map.of());
        attacker = gateway.newProject("otlp-attacker");
        bystander = gateway.newProject("otlp-bystander");
        exporter = gateway.newProject("otlp-exporter", new Quota(1, 10));
        assertEquals(200, exportOrdinarySpan().statusCode()); // the first publish waits for Kafka's metadata: not what is timed
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @AfterEach
    void anotherProjectsOrdinaryExportIsAnsweredWithinASecond() {
        long start = System.nanoTime();

        HttpResponse<String> response = exportOrdinarySpan();

        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(millis < 1_000, millis + " ms");
    }

    private static HttpResponse<String> exportOrdinarySpan() {
        String ordinary = """
                {"resourceSpans": [{"scopeSpans": [{"spans": [
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "kind": 2, "name": "GET /a",
                   "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000100000000",
                   "attributes": [{"key": "http.response.status_code", "value": {"intValue": "200"}}]}]}]}]}""";
        return gateway.postBytes(bystander, "otlp/v1/traces", ordinary.getBytes(StandardCharsets.UTF_8), "Content-Type",
                "application/json");
    }

    static Stream<String> negativeExponents() {
        return Stream.of("\"startTimeUnixNano\": 1e-60000000", "\"startTimeUnixNano\": \"1e-60000000\"", "\"kind\": 1e-60000000",
                "\"kind\": \"1e-60000000\"");
    }

    @ParameterizedTest
    @MethodSource("negativeExponents")
    void aNegativeExponentIsRefusedWith400Quickly(String field) {
        String body = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"name\": \"GET /\", " + field + "}]}]}]}";
        long start = System.nanoTime();

        HttpResponse<String> response = gateway.postBytes(attacker, "otlp/v1/traces", body.getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");

        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(millis < QUICKLY.toMillis(), millis + " ms");
    }

    static Stream<String> namesTheParserRefuses() {
        return Stream.of("user.\\ud83d\\ude00", "中".repeat(17_000));
    }

    /** Validated from the tree written with it, the span is still refused as parsing its bytes refuses it. */
    @ParameterizedTest
    @MethodSource("namesTheParserRefuses")
    void aSpanWhoseAttributeKeyTheParserRefusesIsRefusedAlone(String key) {
        String body = """
                {"resourceSpans": [{"scopeSpans": [{"spans": [
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175", "kind": 2, "name": "GET /b",
                   "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000100000000",
                   "attributes": [{"key": "%s", "value": {"stringValue": "v"}}]}]}]}]}""".formatted(key);

        HttpResponse<String> response = gateway.postBytes(attacker, "otlp/v1/traces", body.getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"partialSuccess\":{\"rejectedSpans\":\"1\",\"errorMessage\":\"1 span was not "
                + "stored in full: 1 events or spans refused, the first because the body is not valid JSON: "), response.body());
    }

    @Test
    void aSpanOfAMillionUnknownFieldsIsChargedForThemAndRefusedQuicklyHoldingNothing() throws Exception {
        // 4.7 MB of one span (0.5 MB gzipped): charged 57 MB decoded, more than a project's share of the budget.
        ByteArrayOutputStream unknown = new ByteArrayOutputStream();
        CodedOutputStream coded = CodedOutputStream.newInstance(unknown);
        coded.writeTag(Span.NAME_FIELD_NUMBER, 2);
        coded.writeStringNoTag("GET /");
        for (int field = 100; field < 1_000_100; field++) {
            coded.writeUInt64(field, 1);
        }
        coded.flush();
        Span span = Span.parseFrom(unknown.toByteArray()).toBuilder()
                .setTraceId(ByteString.fromHex("5b8efff798038103d269b633813fc60c"))
                .setSpanId(ByteString.fromHex("eee19b7ec3c1b174")).build(); // its unknown fields kept, to send them
        byte[] export = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build().toByteArray();
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
            gzip.write(export);
        }
        long start = System.nanoTime();

        HttpResponse<String> response = gateway.postBytes(attacker, "otlp/v1/traces", gzipped.toByteArray(),
                "Content-Type", "application/x-protobuf", "Content-Encoding", "gzip");

        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(413, response.statusCode(), response.body());
        assertTrue(millis < QUICKLY.toMillis(), millis + " ms");
        assertTrue(gateway.admin("/metrics").body().contains("\nsluice_gateway_in_flight_bytes 0.0\n"), "nothing held once answered");
    }

    @Test
    void anExportOfTenThousandSpansBeyondItsProjectsQuotaHasTheSpansOverItPassedOverUndecoded() throws Exception {
        // 10,000 spans against a quota of 10 at once and 1 a second; the last span's name is not UTF-8, which decoding it
        // would refuse (400 for the whole export): answered 200, that span never decoded, as none of the others over quota.
        ByteArrayOutputStream export = new ByteArrayOutputStream();
        export.write(OtelSpans.protobuf(OtelSpans.typicalServerSpans(9_999)));
        // The last span written by hand: a generated builder checks UTF-8.
        byte[] span = message(out -> {
            out.writeByteArray(Span.TRACE_ID_FIELD_NUMBER, ByteString.fromHex("5b8efff798038103d269b633813fc60c").toByteArray());
            out.writeByteArray(Span.SPAN_ID_FIELD_NUMBER, ByteString.fromHex("eee19b7ec3c1b174").toByteArray());
            out.writeByteArray(Span.NAME_FIELD_NUMBER, new byte[] {(byte) 0xFF});
            out.writeUInt32(Span.KIND_FIELD_NUMBER, Span.SpanKind.SPAN_KIND_SERVER_VALUE);
        });
        byte[] scope = message(out -> out.writeByteArray(ScopeSpans.SPANS_FIELD_NUMBER, span));
        byte[] resource = message(out -> out.writeByteArray(ResourceSpans.SCOPE_SPANS_FIELD_NUMBER, scope));
        export.write(message(out -> out.writeByteArray(ExportTraceServiceRequest.RESOURCE_SPANS_FIELD_NUMBER, resource)));
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
            gzip.write(export.toByteArray());
        }

        HttpResponse<String> response = gateway.postBytes(exporter, "otlp/v1/traces", gzipped.toByteArray(),
                "Content-Type", "application/x-protobuf", "Content-Encoding", "gzip");

        assertEquals(200, response.statusCode(), response.body());
    }

    private interface Fields {
        void write(CodedOutputStream out) throws java.io.IOException;
    }

    private static byte[] message(Fields fields) throws java.io.IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        fields.write(out);
        out.flush();
        return bytes.toByteArray();
    }
}
