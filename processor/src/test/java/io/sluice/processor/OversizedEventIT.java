package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.rows.Columns;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * An accepted event near the gateway's 1 MiB limit (a 900 KB URL, a 900 KB error message) must not
 * make a row the stream cannot produce: it is stored truncated, and the events after it flow. A
 * row too large all the same goes to the dead letters, and the events after it flow.
 */
@ExtendWith(RealEngines.class)
class OversizedEventIT {
    private static final int HUGE = 900_000;

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void hugeFieldsAreStoredTruncatedAndLaterEventsStillFlow(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("oversized", engines, stateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        try (ProcessorService processor = ProcessorService.start(config); RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            String hugeUrl = "https://shop.example/" + "a".repeat(HUGE);
            raw.send("oversized.transactions", "shop", "big-url", minute, "{\"transaction\": \"GET /big\", \"environment\": "
                    + "\"production\", \"request\": {\"url\": \"" + hugeUrl + "\"}, \"tags\": {\"http.status_code\": 200}}");
            raw.send("oversized.errors", "shop", "big-message", minute, "{\"environment\": \"production\", \"exception\": "
                    + "{\"values\": [{\"type\": \"HugeError\", \"value\": \"" + "b".repeat(HUGE) + "\"}]}}");
            for (int i = 0; i < 5; i++) {
                raw.transaction("oversized.transactions", "shop", "t" + i, minute.plusSeconds(i + 1), 200);
                raw.error("oversized.errors", "shop", "e" + i, minute.plusSeconds(i + 1), "ValueError");
            }

            String settled = "6\t6\t6\t6";
            Await.until(Duration.ofSeconds(120), settled, () -> ClickHouseQuery.run(engines, "SELECT "
                    + "(SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), (SELECT count() FROM " + db + ".transactions FINAL), "
                    + "(SELECT count() FROM " + db + ".errors FINAL), (SELECT sum(errors) FROM " + db + ".errors_1m FINAL)"));
            assertEquals(Columns.URL + "\t" + Columns.PATH, ClickHouseQuery.run(engines,
                    "SELECT length(url), length(path) FROM " + db + ".transactions FINAL WHERE event_id = 'big-url'"));
            assertEquals(Columns.EXCEPTION_VALUE + "\t1", ClickHouseQuery.run(engines, "SELECT length(exception_value), "
                    + "isValidJSON(payload) FROM " + db + ".errors FINAL WHERE event_id = 'big-message'"));
            assertEquals(KafkaStreams.State.RUNNING, processor.state());
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aRowTooLargeToProduceGoesToTheDeadLettersWithItsReasonAndLaterEventsStillFlow(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("unproducible", engines, stateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        try (ProcessorService processor = ProcessorService.start(config); RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            // Not from a gateway (which checks project names): 200 KB of control characters as the
            // project, 1.2 MB once escaped in the JSON row and its repartition key.
            raw.transaction("unproducible.transactions", "\u0001".repeat(200_000), "bad", minute, 200);
            for (int i = 0; i < 5; i++) {
                raw.transaction("unproducible.transactions", "shop", "t" + i, minute.plusSeconds(i + 1), 200);
            }

            Await.until(Duration.ofSeconds(120), "5\t5", () -> ClickHouseQuery.run(engines, "SELECT "
                    + "(SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), (SELECT count() FROM " + db + ".transactions FINAL)"));
            // One letter per record Kafka refused: the history row and the two repartition records
            // (traffic, and requests by route) keyed by the 1.2 MB project.
            var dead = KafkaRecords.find(engines, "unproducible.dead-letters", 3, Duration.ofSeconds(30), record -> true);
            assertEquals(3, dead.size());
            for (var letter : dead) {
                // The raw input record, and where it lies (the row's own headers are not the gateway's).
                assertTrue(new String(letter.value(), StandardCharsets.UTF_8).startsWith("{\"transaction\": \"GET /items/bad\""));
                assertTrue(KafkaRecords.header(letter, "sluice.dead_letter.source").matches("unproducible\\.transactions/\\d+@0"),
                        KafkaRecords.header(letter, "sluice.dead_letter.source"));
                assertTrue(KafkaRecords.header(letter, "sluice.dead_letter.reason").contains("more than the 1032192 the producer may send"),
                        KafkaRecords.header(letter, "sluice.dead_letter.reason"));
            }
            assertEquals(KafkaStreams.State.RUNNING, processor.state());
            String metrics = metrics(processor);
            assertTrue(metrics.contains("sluice_processor_dead_letters_total{reason=\"unproducible\"} 3.0\n"), metrics);
            assertTrue(metrics.contains("sluice_processor_dead_letters_total{reason=\"unparseable\"} 0.0\n"), metrics);
            // Streams counts what a production handler skips as dropped too.
            assertTrue(metrics.contains("sluice_processor_dropped_records_total 3.0\n"), metrics);
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anUnparseableRecordTooLargeForADeadLetterGoesWithoutItsValueAndLaterEventsStillFlow(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("unparseablehuge", engines, stateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        try (ProcessorService processor = ProcessorService.start(config); RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            // 1.2 MB, past the stream producer's 1 MiB, and without the gateway's headers: unparseable.
            String huge = "{\"transaction\": \"GET /" + "h".repeat(1_200_000) + "\", \"environment\": \"production\"}";
            raw.send("unparseablehuge.transactions", "shop", null, minute, huge);
            for (int i = 0; i < 5; i++) {
                raw.transaction("unparseablehuge.transactions", "shop", "t" + i, minute.plusSeconds(i + 1), 200);
            }

            assertEquals("5\t5", Await.until(Duration.ofSeconds(120), "5\t5", () -> ClickHouseQuery.run(engines, "SELECT "
                    + "(SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), (SELECT count() FROM " + db + ".transactions FINAL)")));
            var dead = KafkaRecords.find(engines, "unparseablehuge.dead-letters", 1, Duration.ofSeconds(30), record -> true);
            assertEquals(1, dead.size());
            assertEquals(null, dead.get(0).value() == null ? null : dead.get(0).value().length + " bytes");
            assertEquals((huge.length()) + " bytes, more than a dead letter carries (983040); the original stays at its source offset",
                    KafkaRecords.header(dead.get(0), "sluice.dead_letter.value_omitted"));
            assertEquals("header sluice.event_id is missing", KafkaRecords.header(dead.get(0), "sluice.dead_letter.reason"));
            assertTrue(KafkaRecords.header(dead.get(0), "sluice.dead_letter.source").matches("unparseablehuge\\.transactions/\\d+@0"),
                    KafkaRecords.header(dead.get(0), "sluice.dead_letter.source"));
            assertEquals(KafkaStreams.State.RUNNING, processor.state());
            String metrics = metrics(processor);
            assertTrue(metrics.contains("sluice_processor_dead_letters_total{reason=\"unparseable\"} 1.0\n"), metrics);
            assertTrue(metrics.contains("sluice_processor_dropped_records_total 0.0\n"), metrics);
        }
    }

    private static String metrics(ProcessorService processor) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + processor.adminPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
