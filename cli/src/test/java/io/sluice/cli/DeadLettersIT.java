package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * {@code ./sluice dead-letters} on real engines, through a cause that can be fixed: a column changed
 * under the sink (user_id made a number) makes ClickHouse refuse the row of a user "alice" while it
 * takes the others; the sink dead-letters it. Once the column is repaired, replay stores it, once.
 */
@ExtendWith(RealEngines.class)
class DeadLettersIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DB = "sluice_deadletters";
    private static final String TABLE = DB + ".transactions";

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aRowRefusedForACauseSinceFixedReachesClickHouseOnceAfterReplayAndASecondReplayChangesNothing(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("deadletters", engines, stateDir).toMap();
        Settings settings = new Settings(values);
        assertEquals(0, CliRunner.run(settings, "schema", "apply").exitCode());
        ClickHouseQuery.run(engines, "ALTER TABLE " + TABLE + " MODIFY COLUMN user_id UInt64");
        Instant time = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(2));
        try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(settings));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                     engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            send(producer, values.get("SLUICE_TOPIC_TRANSACTIONS"), time, "alice1", "alice");
            for (int i = 1; i <= 3; i++) {
                send(producer, values.get("SLUICE_TOPIC_TRANSACTIONS"), time, "good" + i, Integer.toString(i));
            }
            Await.until("the three good rows", Duration.ofSeconds(60), "3",
                    () -> ClickHouseQuery.run(engines, "SELECT count() FROM " + TABLE + " FINAL").strip());
            Await.until("one dead letter", Duration.ofSeconds(60), 1L, () -> listJson(settings).get("total").asLong());
            JsonNode list = listJson(settings);

            JsonNode group = list.get("groups").get(0);
            assertEquals(1, list.get("groups").size(), list.toString());
            assertEquals(1, group.get("count").asInt());
            assertEquals("shop", group.get("project").asText());
            assertEquals(values.get("SLUICE_TOPIC_HISTORY"), group.get("source_topic").asText());
            assertTrue(group.get("reason").asText().startsWith("Code: "), group.toString());
            CliRunner.Result table = CliRunner.run(settings, "dead-letters", "list");
            assertTrue(table.out().startsWith("1 dead letters in " + values.get("SLUICE_TOPIC_DEAD_LETTERS") + " since "), table.out());
            assertTrue(table.out().contains("\n      1  shop "), table.out());
            CliRunner.Result before = CliRunner.run(settings, "dead-letters", "list", "--json", "--until", "1h");
            assertEquals(0, JSON.readTree(before.out()).get("total").asInt(), before.out());

            CliRunner.Result shown = CliRunner.run(settings, "dead-letters", "show", group.get("newest").asText());
            assertEquals(0, shown.exitCode(), shown.err());
            assertTrue(shown.out().contains("\n  source:  " + values.get("SLUICE_TOPIC_HISTORY") + "/"), shown.out());
            assertTrue(shown.out().contains("\n  event:   alice1\n") && shown.out().contains("\"user_id\":\"alice\""), shown.out());

            // The fix; merges stopped so that every row the sink inserts stays visible as a row until FINAL.
            ClickHouseQuery.run(engines, "ALTER TABLE " + TABLE + " MODIFY COLUMN user_id String");
            ClickHouseQuery.run(engines, "SYSTEM STOP MERGES " + TABLE);
            CliRunner.Result dryRun = CliRunner.run(settings, "dead-letters", "replay", "--dry-run");
            assertEquals(0, dryRun.exitCode(), dryRun.err());
            assertTrue(dryRun.out().endsWith("would send 1 back (" + values.get("SLUICE_TOPIC_HISTORY") + ": 1)\n"), dryRun.out());

            CliRunner.Result replay = CliRunner.run(settings, "dead-letters", "replay", "--project", "shop", "--reason", "Code: ");
            assertEquals(0, replay.exitCode(), replay.err());
            assertEquals("Replaying 1 of 1 dead letters since ", replay.out().substring(0, 36));
            assertTrue(replay.out().endsWith("\nsent 1 back (" + values.get("SLUICE_TOPIC_HISTORY") + ": 1)\n"), replay.out());
            assertEquals("1", Await.until("alice's row", Duration.ofSeconds(60), "1", () -> ClickHouseQuery.run(engines,
                    "SELECT count() FROM " + TABLE + " WHERE event_id = 'alice1' AND user_id = 'alice'").strip()));

            CliRunner.Result again = CliRunner.run(settings, "dead-letters", "replay");
            assertEquals(0, again.exitCode(), again.err());
            // Inserted a second time (two rows until merged) and still one row: replaying twice counts once.
            Await.until("the second insert", Duration.ofSeconds(60), "2",
                    () -> ClickHouseQuery.run(engines, "SELECT count() FROM " + TABLE + " WHERE event_id = 'alice1'").strip());
            assertEquals("4\t1", ClickHouseQuery.run(engines, "SELECT count(), countIf(event_id = 'alice1') FROM " + TABLE + " FINAL").strip());
        }
    }

    /**
     * A raw event the processor dead-lettered for a cause since fixed (a parser bug, say, fixed by an
     * upgrade): replayed twice to its raw topic and partition, it is counted once in the history and in
     * the minute's traffic, as the processor drops an event id it has seen within the horizon.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aRawEventReplayedTwiceIsCountedOnce(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("deadletterraw", engines, stateDir).toMap();
        Settings settings = new Settings(values);
        String db = "sluice_deadletterraw";
        String raw = values.get("SLUICE_TOPIC_TRANSACTIONS");
        Instant time = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(2));
        try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(settings));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                     engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(event(raw, time, "first", "7")).get(10, TimeUnit.SECONDS);
            Await.until("the first event's minute", Duration.ofSeconds(60), "1", () -> requests(engines, db));

            ProducerRecord<byte[], byte[]> lost = event(values.get("SLUICE_TOPIC_DEAD_LETTERS"), time, "lost", "8");
            EventHeaders.put(lost.headers(), "sluice.dead_letter.reason", "a parser bug, fixed in the next version");
            EventHeaders.put(lost.headers(), "sluice.dead_letter.source", raw + "/0@0");
            producer.send(new ProducerRecord<>(lost.topic(), 0, lost.timestamp(), lost.key(), lost.value(), lost.headers()))
                    .get(10, TimeUnit.SECONDS);

            CliRunner.Result replay = CliRunner.run(settings, "dead-letters", "replay", "--reason", "parser bug");
            assertTrue(replay.out().endsWith("\nsent 1 back (" + raw + ": 1)\n"), replay.out() + replay.err());
            Await.until("the replayed event in its minute", Duration.ofSeconds(60), "2", () -> requests(engines, db));

            assertEquals(0, CliRunner.run(settings, "dead-letters", "replay").exitCode());
            // A later event behind it on the same partition: once it is counted, so is anything replayed before it.
            ProducerRecord<byte[], byte[]> marker = event(raw, time, "marker", "9");
            producer.send(new ProducerRecord<>(raw, 0, marker.timestamp(), marker.key(), marker.value(), marker.headers()))
                    .get(10, TimeUnit.SECONDS);
            Await.until("the marker's row", Duration.ofSeconds(60), "3",
                    () -> ClickHouseQuery.run(engines, "SELECT count() FROM " + db + ".transactions FINAL").strip());
            assertEquals("3", Await.waitThenLook(Duration.ofSeconds(8), "4", () -> requests(engines, db)));
            assertEquals("1", ClickHouseQuery.run(engines, "SELECT count() FROM " + db + ".transactions FINAL WHERE event_id = 'lost'").strip());
        }
    }

    private static String requests(Engines engines, String db) {
        return ClickHouseQuery.run(engines, "SELECT sum(requests) FROM " + db + ".traffic_1m FINAL").strip();
    }

    private static JsonNode listJson(Settings settings) {
        CliRunner.Result result = CliRunner.run(settings, "dead-letters", "list", "--json");
        assertEquals(0, result.exitCode(), result.err());
        try {
            return JSON.readTree(result.out());
        } catch (Exception e) {
            throw new AssertionError(result.out(), e);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, Instant time, String eventId, String user)
            throws Exception {
        producer.send(event(topic, time, eventId, user)).get(10, TimeUnit.SECONDS);
    }

    /** A raw transaction record as the gateway writes it: JSON value, project key, event headers. */
    private static ProducerRecord<byte[], byte[]> event(String topic, Instant time, String eventId, String user) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, time.toEpochMilli(), "shop".getBytes(StandardCharsets.UTF_8),
                ("{\"transaction\": \"GET /cart\", \"user\": {\"id\": \"" + user + "\"}}").getBytes(StandardCharsets.UTF_8));
        EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, eventId);
        EventHeaders.put(record.headers(), EventHeaders.PROJECT, "shop");
        EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(time.toEpochMilli()));
        EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(time.toEpochMilli()));
        return record;
    }
}
