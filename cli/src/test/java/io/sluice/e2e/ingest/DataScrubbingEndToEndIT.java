package io.sluice.e2e.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.cli.CliRunner;
import io.sluice.e2e.TestPipeline;
import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * Secrets an event carries (request headers, password fields, card numbers, URLs' tokens) never
 * reach Kafka nor ClickHouse: gateway → raw topic → processor → {@code errors.payload},
 * {@code errors.request_url}, {@code transactions.url}, through both the v1 API and a Sentry
 * envelope; a project's extra names are scrubbed too, and a project that opted out (from the
 * command line) keeps its events as sent.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DataScrubbingEndToEndIT {
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    private static final String NAME = "scrub";
    private static final String DB = "sluice_" + NAME;
    private static final List<String> SECRETS = List.of("AUTHSECRET", "COOKIESECRET", "PASSWORDSECRET", "APIKEYSECRET",
            "URLTOKENSECRET", "4111 1111 1111 1111");

    @TempDir
    static Path stateDir;

    static TestPipeline pipeline;
    static ProjectAdmin.NewProject scrubbed;
    static ProjectAdmin.NewProject optedOut;
    static ProjectAdmin.NewProject extraNames;

    @BeforeAll
    static void startPipeline(Engines engines) throws Exception {
        pipeline = TestPipeline.named(NAME, engines, stateDir).create();
        scrubbed = pipeline.createProject("scrubbed");
        optedOut = pipeline.createProject("opted-out");
        extraNames = pipeline.createProject("extra-names");
        CliRunner.Result off = CliRunner.run(pipeline.settings(), "projects", "set-scrubbing", optedOut.token(), "--off");
        assertEquals(0, off.exitCode(), off.out() + off.err());
        CliRunner.Result extra = CliRunner.run(pipeline.settings(), "projects", "set-scrubbing", extraNames.token(),
                "--sensitive-fields", "iban");
        assertEquals(0, extra.exitCode(), extra.out() + extra.err());
        assertTrue(extra.out().contains("data scrubbing of extra-names (" + extraNames.token() + "): on (defaults + iban)"), extra.out());
        // The gateway reads the whole registry before it serves: both changes are in force.
        pipeline.start();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void anErrorReportsSecretsReachNeitherTheRawTopicNorThePayload() throws Exception {
        String eventId = "5c0a1d8e2f3b4a5c9d8e7f6a5b4c3d21";
        assertEquals(200, pipeline.post(scrubbed, "project", errorReport(eventId)).statusCode());

        String raw = rawValue(pipeline.topics().errors(), eventId);
        SECRETS.forEach(secret -> assertFalse(raw.contains(secret), secret + " in " + raw));
        assertTrue(raw.contains("\"Authorization\":\"[Filtered]\""), raw);
        assertTrue(raw.contains("{\"path\":\"request.headers.Authorization\",\"rule\":\"@password:filter\"}"), raw);

        String row = pipeline.awaitAnyAnswer("SELECT request_url, exception_value, payload FROM " + DB
                + ".errors FINAL WHERE event_id = '" + eventId + "'");
        SECRETS.forEach(secret -> assertFalse(row.contains(secret), secret + " in " + row));
        assertTrue(row.startsWith("https://shop.example/login?token=[Filtered]&next=/\tcharged [Filtered] twice\t"), row);
        assertTrue(row.contains("\"sluice_scrubbed\":{\"count\":6,"), row);
    }

    @Test
    void aSentryEnvelopesEventWithHeadersAsPairsIsScrubbedToo() throws Exception {
        String eventId = "6d1b2e9f3a4c5b6d0e9f8a7b6c5d4e32";
        String event = "{\"event_id\":\"" + eventId + "\",\"message\":\"boom\",\"request\":{\"url\":\"https://shop.example/a\","
                + "\"headers\":[[\"Authorization\",\"Bearer AUTHSECRET\"],[\"Set-Cookie\",\"sid=COOKIESECRET\"],[\"Accept\",\"*/*\"]],"
                + "\"query_string\":\"password=PASSWORDSECRET&page=2\"}}";
        String envelope = "{\"event_id\":\"" + eventId + "\"}\n{\"type\":\"event\"}\n" + event + "\n";
        HttpResponse<String> answer = TestPipeline.send(HttpRequest.newBuilder(URI.create(pipeline.url("/api/"
                        + scrubbed.numericId() + "/envelope/")))
                .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + scrubbed.dsnKey().publicKey())
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(envelope)).build());
        assertEquals(200, answer.statusCode(), answer.body());

        String raw = rawValue(pipeline.topics().errors(), eventId);
        String row = pipeline.awaitAnyAnswer("SELECT payload FROM " + DB + ".errors FINAL WHERE event_id = '" + eventId + "'");
        for (String stored : List.of(raw, row)) {
            SECRETS.forEach(secret -> assertFalse(stored.contains(secret), secret + " in " + stored));
            assertTrue(stored.contains("[[\"Authorization\",\"[Filtered]\"],[\"Set-Cookie\",\"[Filtered]\"],[\"Accept\",\"*/*\"]]"), stored);
            assertTrue(stored.contains("\"query_string\":\"password=[Filtered]&page=2\""), stored);
        }
    }

    @Test
    void aSentryStoreRequestsEventIsScrubbedToo() throws Exception {
        String eventId = "0b5f6c3d7e8a9f0b4c3d2e1f0a9b8c76";
        HttpResponse<String> answer = TestPipeline.send(HttpRequest.newBuilder(URI.create(pipeline.url("/api/"
                        + scrubbed.numericId() + "/store/")))
                .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + scrubbed.dsnKey().publicKey())
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(errorReport(eventId))).build());
        assertEquals(200, answer.statusCode(), answer.body());
        String raw = rawValue(pipeline.topics().errors(), eventId);
        SECRETS.forEach(secret -> assertFalse(raw.contains(secret), secret + " in " + raw));
        assertTrue(raw.contains("\"password\":\"[Filtered]\""), raw);
    }

    @Test
    void aTransactionsUrlAndNameKeepNoToken() throws Exception {
        String eventId = "7e2c3f0a4b5d6c7e1f0a9b8c7d6e5f43";
        String transaction = "{\"event_id\":\"" + eventId + "\",\"transaction\":\"GET /reset?token=URLTOKENSECRET\","
                + "\"tags\":{\"http.status_code\":200},\"contexts\":{\"trace\":{\"data\":{\"method\":\"GET\","
                + "\"url\":\"https://shop.example/reset?token=URLTOKENSECRET&api_key=APIKEYSECRET\"}}}}";
        assertEquals(200, pipeline.post(scrubbed, "transaction", transaction).statusCode());

        String raw = rawValue(pipeline.topics().transactions(), eventId);
        SECRETS.forEach(secret -> assertFalse(raw.contains(secret), secret + " in " + raw));
        String row = "GET /reset?token=[Filtered]\thttps://shop.example/reset?token=[Filtered]&api_key=[Filtered]";
        assertEquals(row, pipeline.awaitAnswer(row,
                "SELECT transaction, url FROM " + DB + ".transactions FINAL WHERE event_id = '" + eventId + "'"));
    }

    @Test
    void aProjectsExtraSensitiveFieldsAreScrubbed() throws Exception {
        String eventId = "8f3d4a1b5c6e7d8f2a1b0c9d8e7f6a54";
        String report = "{\"event_id\":\"" + eventId + "\",\"message\":\"refund failed\","
                + "\"extra\":{\"iban\":\"DE89370400440532013000\",\"order\":\"o-17\"}}";
        assertEquals(200, pipeline.post(extraNames, "project", report).statusCode());
        String payload = "{\"event_id\":\"" + eventId + "\",\"message\":\"refund failed\","
                + "\"extra\":{\"iban\":\"[Filtered]\",\"order\":\"o-17\"},"
                + "\"sluice_scrubbed\":{\"count\":1,\"fields\":[{\"path\":\"extra.iban\",\"rule\":\"project:sensitive_fields\"}]}}";
        assertEquals(payload, pipeline.awaitAnswer(payload,
                "SELECT payload FROM " + DB + ".errors FINAL WHERE event_id = '" + eventId + "'"));
    }

    @Test
    void secretsInPairsNamesKeysAndOtherQuotingReachNeitherTheRawTopicNorThePayload() throws Exception {
        String eventId = "1c5f6a3d7b8e9c0d4e3f2a1b0c9d8e87";
        String report = "{\"event_id\":\"" + eventId + "\",\"message\":\"sync failed\",\"extra\":{"
                + "\"rows\":[[\"postgres://admin:S3cretPw@db/prod\",1],[\"login password=hunter2 card 4111 1111 1111 1111\",\"ok\"],"
                + "[\"http.status_code\",\"200\"]],"
                + "\"pools\":{\"mysql://root:R00tPw@db2/prod\":4},"
                + "\"repr\":\"{'user': 'ann', 'password': 'hunter2'}\","
                + "\"note\":\"card 4111111111111111-exp\","
                + "\"cmd\":\"password=\\\"correct horse battery\\\" user=ann\"}}";
        assertEquals(200, pipeline.post(scrubbed, "project", report).statusCode());

        String raw = rawValue(pipeline.topics().errors(), eventId);
        // TSVRaw: the payload as stored, without the escapes of ClickHouse's TSV (\' for a quote).
        String row = pipeline.awaitAnyAnswer("SELECT payload FROM " + DB + ".errors FINAL WHERE event_id = '" + eventId
                + "' FORMAT TSVRaw").strip();
        for (String stored : List.of(raw, row)) {
            for (String secret : List.of("S3cretPw", "R00tPw", "hunter2", "4111", "horse", "battery")) {
                assertFalse(stored.contains(secret), secret + " in " + stored);
            }
            assertTrue(stored.contains("\"extra\":{\"rows\":[[\"postgres://[Filtered]@db/prod\",1],"
                    + "[\"login password=[Filtered] card [Filtered]\",\"[Filtered]\"],[\"http.status_code\",\"200\"]],"
                    + "\"pools\":{\"mysql://[Filtered]@db2/prod\":4},"
                    + "\"repr\":\"{'user': 'ann', 'password': '[Filtered]'}\",\"note\":\"card [Filtered]-exp\","
                    + "\"cmd\":\"password=\\\"[Filtered]\\\" user=ann\"}"), stored);
            assertTrue(stored.contains("\"sluice_scrubbed\":{\"count\":8,"), stored);
        }
    }

    @Test
    void aProjectThatOptedOutKeepsItsEventsAsSent() throws Exception {
        String eventId = "9a4e5b2c6d7f8e9a3b2c1d0e9f8a7b65";
        String report = errorReport(eventId);
        assertEquals(200, pipeline.post(optedOut, "project", report).statusCode());
        assertEquals(report, rawValue(pipeline.topics().errors(), eventId));
        assertEquals(report, pipeline.awaitAnswer(report,
                "SELECT payload FROM " + DB + ".errors FINAL WHERE event_id = '" + eventId + "'"));
    }

    /** An error report as a web framework's SDK sends one: the request's headers, a form, a card number in the message. */
    private static String errorReport(String eventId) {
        return "{\"event_id\":\"" + eventId + "\",\"environment\":\"production\","
                + "\"exception\":{\"values\":[{\"type\":\"PaymentError\",\"value\":\"charged 4111 1111 1111 1111 twice\"}]},"
                + "\"request\":{\"method\":\"POST\",\"url\":\"https://shop.example/login?token=URLTOKENSECRET&next=/\","
                + "\"headers\":{\"Authorization\":\"Bearer AUTHSECRET\",\"Cookie\":\"sessionid=COOKIESECRET\",\"Accept\":\"*/*\"},"
                + "\"data\":{\"user\":\"ann\",\"password\":\"PASSWORDSECRET\"}},"
                + "\"extra\":{\"api_key\":\"APIKEYSECRET\"}}";
    }

    /** The raw topic's value of the event with this id, as text. */
    private static String rawValue(String topic, String eventId) {
        List<ConsumerRecord<byte[], byte[]>> records = KafkaRecords.find(pipeline.engines(), topic, 1, ARRIVAL,
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, eventId));
        assertEquals(1, records.size(), "records of " + eventId + " in " + topic);
        return new String(records.get(0).value(), StandardCharsets.UTF_8);
    }
}
