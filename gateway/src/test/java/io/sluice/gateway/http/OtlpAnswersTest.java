package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.FailedAuthLimiter;
import io.sluice.gateway.admit.Gate;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.QuotaLimiter;
import io.sluice.gateway.admit.TrustedProxies;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.otlp.ExportReader;
import io.sluice.gateway.publish.TestOutcomes;
import io.sluice.gateway.decompress.BodyDecoder;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Quota;
import io.sluice.projects.Secrets;

/** The OTLP door's answers through the real handlers: what its {@code partial_success} counts. */
class OtlpAnswersTest {
    private final String key = Secrets.newKey();
    /** A quota of one event at a time (1% of 1 a second refills one in 100 s). */
    private final Project project = new Project(Secrets.newToken(), "tenant", false, List.of(ProjectKey.of("k1", key, null)),
            Instant.EPOCH, new Quota(1, 1), Map.of());
    private final Gate gate = new Gate(new Authenticator(BodiesReadOnWorkersTest.lookup(project), Clock.systemUTC()),
            new FailedAuthLimiter(60, 10), TrustedProxies.NONE, new QuotaLimiter(0.01),
            new InFlightBudget(64 << 20, 64 << 20, new AtomicLong()), new InFlightBudget(8 << 20, 1 << 20, new AtomicLong()),
            1 << 20, 32 << 20, 32 << 20);
    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(BodiesReadOnWorkersTest.cluster(), true, null,
            new ByteArraySerializer(), new ByteArraySerializer());
    private final MockProducer<byte[], byte[]> outcomeRecords = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final GatewayMetrics metrics = new GatewayMetrics();
    private final GatewayServices services = new GatewayServices(gate, new BodyDecoder(1 << 20),
            new EventValidator(Duration.ofDays(3650)), BodiesReadOnWorkersTest.publisher(kafka),
            TestOutcomes.to(outcomeRecords), metrics,
            Clock.systemUTC(), new AtomicBoolean(), new BodyDecoder(32 << 20), null, null, new ExportReader(10_000),
            new BodyDecoder(32 << 20));
    private final EmbeddedChannel connection = BodiesReadOnWorkersTest.connection(services);

    @AfterEach
    void close() {
        connection.finishAndReleaseAll();
        services.outcomes().close();
        metrics.close();
    }

    @Test
    void aSpanIsOneRejectedSpanHoweverManyOfItsEventsWereNotStored() {
        // The span's share of the quota (the head's) stands for its transaction; its two errors are over the quota.
        String body = """
                {"resourceSpans": [{"scopeSpans": [{"spans": [
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175", "kind": 2, "name": "GET /b",
                   "attributes": [{"key": "http.response.status_code", "value": {"intValue": "500"}}],
                   "events": [{"name": "exception", "attributes": [{"key": "exception.type", "value": {"stringValue": "E"}}]},
                              {"name": "exception", "attributes": [{"key": "exception.type", "value": {"stringValue": "F"}}]}]}
                ]}]}]}""";

        String answer = send(body);

        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.contains("{\"partialSuccess\":{\"rejectedSpans\":\"1\",\"errorMessage\":\"1 span was not stored in full: "
                + "2 spans or events over the project's quota"), answer);
    }

    @Test
    void spansBeyondTheProjectsQuotaAreAnsweredAsOverQuotaWithoutBeingDecoded() {
        // The head's event of the quota is the first span's; the second span is over the quota, and
        // decoded it would refuse the whole export (its trace id is not hex).
        String body = """
                {"resourceSpans": [{"scopeSpans": [{"spans": [
                  {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "kind": 2, "name": "GET /a"},
                  {"traceId": "not hex", "spanId": "eee19b7ec3c1b175", "kind": 2, "name": "GET /b"}
                ]}]}]}""";

        String answer = send(body);

        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.contains("{\"partialSuccess\":{\"rejectedSpans\":\"1\",\"errorMessage\":\"1 span was not stored in full: "
                + "1 span or event over the project's quota"), answer);
    }

    @Test
    void aMetricExportIsAnsweredWithAMetricsResponseOfFullSuccessAndEachDataPointIsCountedNotStored() {
        String body = """
                {"resourceMetrics": [{"scopeMetrics": [{"metrics": [
                  {"name": "queue.depth", "gauge": {"dataPoints": [{"asInt": "3"}, {"asInt": "4"}]}},
                  {"name": "requests", "sum": {"dataPoints": [{"asDouble": 1.5}], "isMonotonic": true}}
                ]}]}]}""";

        String answer = send("metrics", body);

        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.endsWith("\r\n\r\n{}"), answer);
        assertEquals(Map.of("unsupported_item:otlp_metric", 3L), countedNotStored());
        assertEquals(0, kafka.history().size());
    }

    @Test
    void aLogRecordWithoutAnExceptionIsAnsweredWithFullSuccessAndCountedNotStored() {
        // One record: the project's quota is one event at a time (OtlpIngestIT counts several).
        String body = """
                {"resourceLogs": [{"scopeLogs": [{"logRecords": [
                  {"timeUnixNano": "1764000000123456789", "body": {"stringValue": "order placed"}}
                ]}]}]}""";

        String answer = send("logs", body);

        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.endsWith("\r\n\r\n{}"), answer);
        assertEquals(Map.of("unsupported_item:otlp_log", 1L), countedNotStored());
        assertEquals(0, kafka.history().size());
    }

    @Test
    void anExceptionLogIsPublishedAndOneOverTheQuotaIsARejectedLogRecord() {
        // The head's event of the quota is the first record's; the second is over the quota.
        String record = """
                {"timeUnixNano": "%s", "severityNumber": 17,
                 "attributes": [{"key": "exception.type", "value": {"stringValue": "E"}}]}""";
        String body = "{\"resourceLogs\": [{\"scopeLogs\": [{\"logRecords\": [" + record.formatted("1764000000123456789") + ", "
                + record.formatted("1764000000223456789") + "]}]}]}";

        String answer = send("logs", body);

        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.contains("{\"partialSuccess\":{\"rejectedLogRecords\":\"1\",\"errorMessage\":\"1 log record was not stored "
                + "in full: 1 log record or event over the project's quota"), answer);
        assertEquals(1, kafka.history().size());
    }

    /** The outcomes of items not stored, by code, once flushed. */
    private Map<String, Long> countedNotStored() {
        services.outcomes().close();
        Map<String, Long> counted = new java.util.TreeMap<>();
        for (var record : outcomeRecords.history()) {
            String row = new String(record.value(), StandardCharsets.UTF_8);
            java.util.regex.Matcher outcome = java.util.regex.Pattern.compile("\"outcome\":\"(unsupported_item:[a-z_]+)\".*\"events\":(\\d+)")
                    .matcher(row);
            if (outcome.find()) {
                counted.merge(outcome.group(1), Long.parseLong(outcome.group(2)), Math::max);
            }
        }
        return counted;
    }

    private String send(String body) {
        return send("traces", body);
    }

    private String send(String signal, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /api/v1/" + project.token() + "/otlp/v1/" + signal + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n";
        connection.writeInbound(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), bytes));
        connection.runPendingTasks();
        return BodiesReadOnWorkersTest.written(connection);
    }
}
