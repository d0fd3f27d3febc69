package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.events.ErrorFields;
import io.sluice.events.EventHeaders;
import io.sluice.events.TransactionFields;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * Envelopes as the JavaScript (browser, Node), Python, Go and .NET SDKs send them reach Kafka
 * exactly as the v1 endpoints publish events; client reports and items Sluice does not keep
 * become outcomes; DSN keys, origins and quotas are answered as Sentry SDKs expect.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SentryEndpointsIT {
    static final Path ENVELOPES = Path.of("src/test/resources/sentry-envelopes");
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

    static String dsn(ProjectAdmin.NewProject project) {
        return "http://" + project.dsnKey().publicKey() + "@127.0.0.1:" + gateway.port() + "/" + project.numericId();
    }

    static byte[] fixture(String name, ProjectAdmin.NewProject project) throws IOException {
        String text = new String(Files.readAllBytes(ENVELOPES.resolve(name)), StandardCharsets.ISO_8859_1);
        return text.replace("{{DSN}}", dsn(project)).replace("{{KEY}}", project.dsnKey().publicKey())
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    static HttpRequest.Builder envelope(ProjectAdmin.NewProject project, String query) {
        return envelope(gateway, project, query);
    }

    static HttpRequest.Builder envelope(TestGateway gateway, ProjectAdmin.NewProject project, String query) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/" + project.numericId()
                + "/envelope/" + query)).timeout(Duration.ofSeconds(30));
    }

    static String sentryAuth(ProjectAdmin.NewProject project) {
        return "Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=" + project.dsnKey().publicKey();
    }

    static HttpResponse<String> post(HttpRequest.Builder request, byte[] body) {
        return TestGateway.send(request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** The one record with this event id on the topic, checked to carry the v1 headers of the endpoint. */
    static ConsumerRecord<byte[], byte[]> published(String topic, String eventId, ProjectAdmin.NewProject project, String endpoint) {
        List<ConsumerRecord<byte[], byte[]>> records = KafkaRecords.find(engines, topic, 1, Duration.ofSeconds(15),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, eventId));
        assertEquals(1, records.size(), eventId + " on " + topic);
        ConsumerRecord<byte[], byte[]> record = records.get(0);
        assertEquals(project.token(), new String(record.key(), StandardCharsets.UTF_8));
        assertEquals(project.token(), KafkaRecords.header(record, EventHeaders.PROJECT));
        assertEquals(endpoint, KafkaRecords.header(record, EventHeaders.ENDPOINT));
        return record;
    }

    @Test
    void aDsnOnlyEnvelopeRefusedBeforeItsDsnIsCheckedIsCountedUnderItsPathsProject() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("dsn-only-refused");
        HttpResponse<String> response = post(envelope(project, ""), "{\"dsn\":\"x\"}\n{type: event}\n{}\n"
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(400, response.statusCode(), response.body());
        assertEquals(Map.of("invalid_envelope", 1L), outcomes(project, Map.of("invalid_envelope", 1L)));
    }

    @Test
    void twoHundredDistinctDiscardReasonsAreCountedAsOther() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("many-reasons");
        StringBuilder entries = new StringBuilder("{\"reason\":\"sample_rate\",\"category\":\"error\",\"quantity\":3}");
        for (int i = 0; i < 200; i++) {
            entries.append(",{\"reason\":\"reason_").append(i).append("\",\"category\":\"error\",\"quantity\":1}");
        }
        byte[] body = ("{}\n{\"type\":\"client_report\"}\n{\"discarded_events\":[" + entries + "]}\n")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
        assertEquals(200, response.statusCode(), response.body());
        Map<String, Long> expected = Map.of("client_discard:sample_rate", 3L, "client_discard:other", 200L);
        assertEquals(expected, outcomes(project, expected));
    }

    /**
     * Issue 29 finding 7: one envelope, one quota token, of 100 client reports of 256 entries of
     * 999,999 discards each claimed about 2.6 × 10^10 discards; it counts at most a million.
     */
    @Test
    void anEnvelopeOfManyHugeClientReportsCountsAtMostAMillionDiscards() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("huge-reports");
        String report = java.util.stream.IntStream.range(0, 256)
                .mapToObj(i -> "{\"reason\":\"sample_rate\",\"category\":\"transaction\",\"quantity\":999999}")
                .collect(java.util.stream.Collectors.joining(",", "{\"type\":\"client_report\"}\n{\"discarded_events\":[", "]}\n"));
        byte[] body = ("{}\n" + report.repeat(100)).getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
        assertEquals(200, response.statusCode(), response.body());
        Map<String, Long> expected = Map.of("client_discard:sample_rate", 1_000_000L);
        assertEquals(expected, outcomes(project, expected));
    }

    /** The outcome counts of a project, once they equal {@code expected} (the rows are absolute counts). */
    static Map<String, Long> outcomes(ProjectAdmin.NewProject project, Map<String, Long> expected) throws Exception {
        return TestGateway.outcomes(engines, project, expected);
    }

    @Test
    void browserEnvelopeWithQueryKeyIsPublishedAndItsClientReportAndReplayBecomeOutcomes() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("browser");
        HttpResponse<String> response = post(envelope(project, "?sentry_key=" + project.dsnKey().publicKey() + "&sentry_version=7")
                .header("Content-Type", "text/plain;charset=UTF-8").header("Origin", "https://shop.example"),
                fixture("javascript-browser.envelope", project));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"id\":\"a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\"}", response.body());
        assertEquals("*", response.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals("x-sentry-rate-limits, retry-after", response.headers().firstValue("Access-Control-Expose-Headers").orElse(null));
        ConsumerRecord<byte[], byte[]> record = published("sluice.errors", "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", project, "project");
        assertTrue(new String(record.value(), StandardCharsets.UTF_8).startsWith("{\"event_id\":\"a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\""));
        assertEquals(Map.of("accepted", 1L, "client_discard:ratelimit_backoff", 2L, "client_discard:sample_rate", 4L,
                "client_discard:before_send", 1L, "unsupported_item:replay_event", 1L, "unsupported_item:replay_recording", 1L),
                outcomes(project, Map.of("accepted", 1L, "client_discard:ratelimit_backoff", 2L, "client_discard:sample_rate", 4L,
                        "client_discard:before_send", 1L, "unsupported_item:replay_event", 1L, "unsupported_item:replay_recording", 1L)));
    }

    @Test
    void anEnvelopesTraceReleaseTravelsWithEachEventThatNamesNone() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("release-envelope");
        String body = "{\"trace\":{\"trace_id\":\"5b8efff798038103d269b633813fc60c\",\"public_key\":\""
                + project.dsnKey().publicKey() + "\",\"release\":\"shop@2.4.1\"}}\n"
                + "{\"type\":\"event\"}\n"
                + "{\"event_id\":\"d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4\",\"message\":\"boom\"}\n"
                + "{\"type\":\"transaction\"}\n"
                + "{\"event_id\":\"e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5\",\"type\":\"transaction\",\"transaction\":\"GET /a\","
                + "\"release\":\"shop@2.5.0\"}\n";
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)),
                body.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), response.body());
        ConsumerRecord<byte[], byte[]> error = published("sluice.errors", "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4", project, "project");
        assertEquals("shop@2.4.1", ErrorFields.fromHeader(error.headers()).release());
        assertEquals("shop@2.4.1", ErrorFields.of(new ObjectMapper().readTree(error.value())).release(),
                "the JSON carries it too, for a processor that reads the JSON");
        ConsumerRecord<byte[], byte[]> transaction = published("sluice.transactions", "e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5", project,
                "transaction");
        assertEquals("shop@2.5.0", TransactionFields.fromHeader(transaction.headers()).release(), "its own release, not the trace's");
    }

    @Test
    void nodeEnvelopeAuthenticatedOnlyByItsDsnHeaderIsPublishedAsATransaction() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("node");
        HttpResponse<String> response = post(envelope(project, "").header("Content-Type", "application/x-sentry-envelope"),
                fixture("javascript-node.envelope", project));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"id\":\"b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2\"}", response.body());
        published("sluice.transactions", "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2", project, "transaction");
    }

    @Test
    void pythonGzipEnvelopeWithLengthsAndAnAttachmentPublishesTheEventOnly() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("python");
        byte[] body = fixture("python.envelope", project);
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project))
                .header("Content-Type", "application/x-sentry-envelope").header("Content-Encoding", "gzip"),
                IngestContractIT.gzip(new String(body, StandardCharsets.UTF_8)));
        assertEquals(200, response.statusCode(), response.body());
        ConsumerRecord<byte[], byte[]> record = published("sluice.errors", "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3", project, "project");
        String text = new String(body, StandardCharsets.UTF_8);
        int start = text.indexOf('\n', text.indexOf("\"type\":\"event\"")) + 1;
        assertEquals(text.substring(start, text.indexOf("\n{\"type\":\"attachment\"")), new String(record.value(), StandardCharsets.UTF_8));
        assertEquals(Map.of("accepted", 1L, "unsupported_item:attachment", 1L),
                outcomes(project, Map.of("accepted", 1L, "unsupported_item:attachment", 1L)));
    }

    @Test
    void goEnvelopeTransactionAndCheckIn() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("go");
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project))
                .header("Content-Type", "application/x-sentry-envelope"), fixture("go.envelope", project));
        assertEquals(200, response.statusCode(), response.body());
        published("sluice.transactions", "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4", project, "transaction");
        assertEquals(Map.of("accepted", 1L, "unsupported_item:check_in", 1L),
                outcomes(project, Map.of("accepted", 1L, "unsupported_item:check_in", 1L)));
    }

    @Test
    void dotnetEnvelopeWithAuthorizationSentryAndAnUnknownItemType() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("dotnet");
        HttpResponse<String> response = post(envelope(project, "").header("Authorization", sentryAuth(project)),
                fixture("dotnet.envelope", project));
        assertEquals(200, response.statusCode(), response.body());
        published("sluice.errors", "e6e6e6e6e6e6e6e6e6e6e6e6e6e6e6e6", project, "project");
        // Its session names no release: refused alone, the event stands.
        assertEquals(Map.of("accepted", 1L, "invalid_field", 1L, "unsupported_item:other", 1L),
                outcomes(project, Map.of("accepted", 1L, "invalid_field", 1L, "unsupported_item:other", 1L)));
    }

    @Test
    void sessionItemsArePublishedToTheSessionsTopicAndAnInvalidOneIsRefusedAlone() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("sessions");
        String started = java.time.Instant.now().minusSeconds(60).toString();
        String update = "{\"sid\":\"5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a\",\"init\":true,\"status\":\"ok\",\"errors\":0,\"started\":\""
                + started + "\",\"attrs\":{\"release\":\"shop@1.2.0\",\"environment\":\"production\"}}";
        String aggregate = "{\"attrs\":{\"release\":\"shop@1.2.0\"},\"aggregates\":[{\"started\":\"" + started
                + "\",\"exited\":9,\"crashed\":1}]}";
        String noRelease = "{\"sid\":\"6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b\",\"init\":true,\"started\":\"" + started + "\"}";
        String body = "{\"dsn\":\"" + dsn(project) + "\"}\n{\"type\":\"session\"}\n" + update + "\n{\"type\":\"sessions\"}\n" + aggregate
                + "\n{\"type\":\"session\"}\n" + noRelease + "\n";
        HttpResponse<String> response = post(envelope(project, "").header("Content-Type", "application/x-sentry-envelope"),
                body.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), response.body());
        ConsumerRecord<byte[], byte[]> record = published("sluice.sessions", "5a5a5a5a5a5a4a5a8a5a5a5a5a5a5a5a", project, "session");
        assertEquals(update, new String(record.value(), StandardCharsets.UTF_8));
        assertEquals(java.time.Instant.parse(started).toEpochMilli(), record.timestamp());
        List<ConsumerRecord<byte[], byte[]>> ofProject = KafkaRecords.find(engines, "sluice.sessions", 2, Duration.ofSeconds(15),
                KafkaRecords.withHeader(EventHeaders.PROJECT, project.token()));
        assertEquals(new java.util.TreeSet<>(List.of(update, aggregate)), new java.util.TreeSet<>(ofProject.stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList()), "each on the partition of its id");
        assertEquals(Map.of("accepted", 2L, "invalid_field", 1L), outcomes(project, Map.of("accepted", 2L, "invalid_field", 1L)));
    }

    @Test
    void logTraceMetricAndSpanContainersCountEachThingTheyHoldAndAStandaloneSpanOne() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("containers");
        String body = "{}\n"
                + "{\"type\":\"log\",\"item_count\":3,\"content_type\":\"application/vnd.sentry.items.log+json\"}\n"
                + "{\"items\":[{},{},{}]}\n"
                + "{\"type\":\"trace_metric\",\"item_count\":2,\"content_type\":\"application/vnd.sentry.items.trace-metric+json\"}\n"
                + "{\"items\":[{},{}]}\n"
                + "{\"type\":\"span\"}\n"
                + "{\"op\":\"ui.interaction.click\",\"description\":\"body > button\"}\n";

        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)),
                body.getBytes(StandardCharsets.UTF_8));

        assertEquals(200, response.statusCode(), response.body());
        Map<String, Long> expected = Map.of("unsupported_item:log", 3L, "unsupported_item:trace_metric", 2L, "unsupported_item:span", 1L);
        assertEquals(expected, outcomes(project, expected));
    }

    /** The EVENT_ID headers of every record of the project on the topic, in the order published. */
    static List<String> publishedIds(String topic, ProjectAdmin.NewProject project) {
        return KafkaRecords.upToEnd(engines, topic, Duration.ofSeconds(30),
                        r -> project.token().equals(new String(r.key(), StandardCharsets.UTF_8)))
                .stream().map(r -> KafkaRecords.header(r, EventHeaders.EVENT_ID)).toList();
    }

    @Test
    void anEventWhoseEventIdIsNullTakesTheEnvelopesIdSoARetryIsTheSameEvent() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("null-event-id");
        byte[] body = ("{\"event_id\":\"5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a\"}\n{\"type\":\"event\"}\n"
                + "{\"event_id\" : null,\"message\":\"x\"}\n").getBytes(StandardCharsets.UTF_8);
        for (int attempt = 1; attempt <= 2; attempt++) { // the second as a retry after a 503 would send it
            HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("{\"id\":\"5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a\"}", response.body());
        }
        assertEquals(List.of("5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a", "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"),
                publishedIds("sluice.errors", project));
        ConsumerRecord<byte[], byte[]> record = KafkaRecords.find(engines, "sluice.errors", 1, Duration.ofSeconds(15),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a")).get(0);
        assertEquals("{\"event_id\" : \"5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a\",\"message\":\"x\"}",
                new String(record.value(), StandardCharsets.UTF_8));
    }

    @Test
    void anEnvelopeWhoseHeaderNamesAnotherIdThanItsEventIsAnsweredWithTheIdStored() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("mismatched-ids");
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)),
                ("{\"event_id\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}\n{\"type\":\"event\"}\n"
                        + "{\"event_id\":\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\",\"message\":\"x\"}\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"id\":\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}", response.body());
        assertEquals(List.of("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"), publishedIds("sluice.errors", project));
    }

    @Test
    void anEnvelopeWithHeaderIdButNoEventIsAnsweredWithoutAnId() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("header-id-no-event");
        HttpResponse<String> response = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)),
                ("{\"event_id\":\"cccccccccccccccccccccccccccccccc\"}\n{\"type\":\"attachment\",\"length\":2}\nhi\n")
                        .getBytes(StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{}", response.body());
    }

    @Test
    void storeTakesAnErrorOrATransactionByItsType() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("store");
        HttpRequest.Builder store = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/"
                + project.numericId() + "/store")).header("X-Sentry-Auth", sentryAuth(project)).header("Content-Type", "application/json");
        HttpResponse<String> error = post(store, "{\"event_id\":\"f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1\",\"message\":\"boom\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"id\":\"f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1\"}", error.body());
        HttpResponse<String> transaction = post(store, ("{\"type\":\"transaction\",\"event_id\":\"f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2\","
                + "\"transaction\":\"GET /\",\"tags\":{\"http.status_code\":\"200\"}}").getBytes(StandardCharsets.UTF_8));
        assertEquals(200, transaction.statusCode(), transaction.body());
        published("sluice.errors", "f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1", project, "project");
        published("sluice.transactions", "f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2", project, "transaction");
    }

    @Test
    void preflightIsAnsweredForAnyOrigin() {
        ProjectAdmin.NewProject project = gateway.newProject("preflight");
        HttpResponse<String> response = TestGateway.send(envelope(project, "").header("Origin", "https://shop.example")
                .header("Access-Control-Request-Method", "POST").method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(200, response.statusCode());
        assertEquals("POST", response.headers().firstValue("Access-Control-Allow-Methods").orElse(null));
        assertEquals("content-type, x-sentry-auth, sentry-trace, baggage, content-encoding",
                response.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
        assertEquals("86400", response.headers().firstValue("Access-Control-Max-Age").orElse(null));
        assertEquals("*", response.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    }

    @Test
    void keysAreCheckedAndAPrivateKeyIsNoDsnKey() {
        ProjectAdmin.NewProject project = gateway.newProject("keys");
        ProjectAdmin.NewProject other = gateway.newProject("other");
        byte[] body = "{}\n{\"type\":\"event\"}\n{\"message\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(403, post(envelope(project, "?sentry_key=" + other.dsnKey().publicKey()), body).statusCode());
        assertEquals(401, post(envelope(project, "?sentry_key=" + project.key()), body).statusCode());
        HttpResponse<String> bearer = post(envelope(project, "").header("Authorization", "Bearer " + project.key()), body);
        assertEquals(401, bearer.statusCode());
        assertEquals("*", bearer.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        HttpResponse<String> conflicting = post(envelope(project, "?sentry_key=" + other.dsnKey().publicKey())
                .header("X-Sentry-Auth", sentryAuth(project)), body);
        assertEquals(400, conflicting.statusCode());
        assertTrue(conflicting.body().startsWith("{\"error\":\"bad_request\""), conflicting.body());
        assertEquals(401, post(envelope(project, ""), body).statusCode()); // no credential at all
        // And a DSN key is no Bearer key on the v1 API.
        assertEquals(401, TestGateway.send(gateway.request(project.token(), "project")
                .header("Authorization", "Bearer " + project.dsnKey().publicKey())
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode());
    }

    @Test
    void anOriginTheKeyDoesNotListGets403AndAListedOneIsEchoed() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("origins");
        try (ProjectAdmin admin = gateway.projects()) {
            admin.setDsnOrigins(project.token(), project.dsnKey().id(), List.of("https://shop.example"));
        }
        byte[] body = "{}\n{\"type\":\"event\"}\n{\"message\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> refused = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) { // the gateway follows the registry
            refused = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project)).header("Origin", "https://evil.example"), body);
            if (refused.statusCode() == 403) {
                break;
            }
            Thread.sleep(50);
        }
        assertEquals(403, refused.statusCode());
        assertTrue(refused.body().startsWith("{\"error\":\"origin_not_allowed\""), refused.body());
        HttpResponse<String> allowed = post(envelope(project, "").header("X-Sentry-Auth", sentryAuth(project))
                .header("Origin", "https://shop.example"), body);
        assertEquals(200, allowed.statusCode(), allowed.body());
        assertEquals("https://shop.example", allowed.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    }

    /**
     * A gateway allowing 0.01 of every quota: 1/s burst 1 becomes one event every 100 s, so a quota
     * used up in a test stays used up however slowly its requests come (a Kafka acknowledgement may
     * take more than the 1 s in which 1/s would refill).
     */
    private static TestGateway stingyGateway() throws InterruptedException {
        return TestGateway.start(engines, Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.01"));
    }

    /**
     * The wait a stingy gateway names for a quota of 1/s whose one event was taken at most
     * {@code sinceTakenNanos} ago: the 100 s that event takes to refill at 0.01/s, less what has refilled.
     */
    private static void assertWaitForOneEventAtAHundredthOfOnePerSecond(long waitSeconds, long sinceTakenNanos) {
        long sinceTakenSeconds = TimeUnit.NANOSECONDS.toSeconds(sinceTakenNanos) + 1;
        assertTrue(waitSeconds <= 100 && waitSeconds >= 100 - sinceTakenSeconds,
                "wait " + waitSeconds + " s, taken at most " + sinceTakenSeconds + " s ago");
    }

    @Test
    void anEnvelopeWhoseTransactionIsOverItsEndpointQuotaIs200ForItsErrorAndNamesTheTransactionCategory() throws Exception {
        try (TestGateway stingy = stingyGateway()) {
            ProjectAdmin.NewProject project = stingy.newProject("partly");
            stingy.setEndpointQuota(project, "transaction", new Quota(1, 1));
            // The header names the error, as SDKs do (with two events, the header's id is not given to either).
            byte[] body = ("{\"event_id\":\"0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a\"}\n{\"type\":\"event\"}\n"
                    + "{\"event_id\":\"0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a\",\"message\":\"x\"}\n"
                    + "{\"type\":\"transaction\"}\n{\"transaction\":\"GET /\"}\n").getBytes(StandardCharsets.UTF_8);
            long start = System.nanoTime();
            HttpResponse<String> first = post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
            assertEquals(200, first.statusCode(), first.body());
            assertEquals(null, first.headers().firstValue("X-Sentry-Rate-Limits").orElse(null), "the endpoint quota's one event");
            HttpResponse<String> response = post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
            long sinceTaken = System.nanoTime() - start;
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("{\"id\":\"0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a\"}", response.body());
            String limits = response.headers().firstValue("X-Sentry-Rate-Limits").orElse("");
            assertTrue(limits.matches("[0-9]+:transaction:project:quota_exceeded"), limits);
            assertWaitForOneEventAtAHundredthOfOnePerSecond(Long.parseLong(limits.substring(0, limits.indexOf(':'))), sinceTaken);
        }
    }

    @Test
    void anEnvelopeWhoseFirstEventIsOverQuotaIsAnsweredWithTheIdOfTheEventPublished() throws Exception {
        try (TestGateway stingy = stingyGateway()) {
            ProjectAdmin.NewProject project = stingy.newProject("first-over-quota");
            stingy.setEndpointQuota(project, "transaction", new Quota(1, 1));
            String transaction = "{\"type\":\"transaction\"}\n{\"event_id\":\"%s\",\"transaction\":\"GET /\"}\n";
            HttpResponse<String> first = post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)),
                    ("{}\n" + transaction.formatted("1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b")).getBytes(StandardCharsets.UTF_8));
            assertEquals("{\"id\":\"1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b\"}", first.body(), "the endpoint quota's one event");
            HttpResponse<String> response = post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)),
                    ("{}\n" + transaction.formatted("2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b")
                            + "{\"type\":\"event\"}\n{\"event_id\":\"2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e\",\"message\":\"x\"}\n")
                            .getBytes(StandardCharsets.UTF_8));
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("{\"id\":\"2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e\"}", response.body());
            assertTrue(response.headers().firstValue("X-Sentry-Rate-Limits").orElse("").endsWith(":transaction:project:quota_exceeded"));
            assertEquals(List.of("2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e"), publishedIds("sluice.errors", project));
            assertEquals(List.of("1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b"), publishedIds("sluice.transactions", project));
        }
    }

    @Test
    void aProjectOverItsQuotaGets429WithSentryRateLimits() throws Exception {
        try (TestGateway stingy = stingyGateway()) {
            ProjectAdmin.NewProject project = stingy.newProject("limited", new Quota(1, 1));
            byte[] body = "{}\n{\"type\":\"event\"}\n{\"message\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
            long start = System.nanoTime();
            assertEquals(200, post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)), body).statusCode());
            HttpResponse<String> limited = post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
            long sinceTaken = System.nanoTime() - start;
            assertEquals(429, limited.statusCode(), limited.body());
            String retryAfter = limited.headers().firstValue("Retry-After").orElse("");
            assertTrue(retryAfter.matches("[0-9]+"), retryAfter);
            assertWaitForOneEventAtAHundredthOfOnePerSecond(Long.parseLong(retryAfter), sinceTaken);
            assertEquals(retryAfter + ":transaction;error;session:project:quota_exceeded",
                    limited.headers().firstValue("X-Sentry-Rate-Limits").orElse(null), "the SDK is told the same wait");
            assertEquals("*", limited.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        }
    }

    @Test
    void anEnvelopeWithoutEventsStillTakesOneEventOfTheQuotaFromItsHead() throws Exception {
        try (TestGateway stingy = stingyGateway()) {
            ProjectAdmin.NewProject project = stingy.newProject("reports-only", new Quota(1, 1));
            byte[] body = "{}\n{\"type\":\"client_report\"}\n{\"discarded_events\":[]}\n".getBytes(StandardCharsets.UTF_8);
            assertEquals(200, post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)), body).statusCode());
            HttpResponse<String> limited = post(envelope(stingy, project, "").header("X-Sentry-Auth", sentryAuth(project)), body);
            assertEquals(429, limited.statusCode(), limited.body());
        }
    }
}
