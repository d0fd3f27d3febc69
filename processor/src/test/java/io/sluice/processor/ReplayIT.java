package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.clickhouse.client.api.Client;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.kafka.TopicSetup;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayRequest;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** After an outage: rows lost in ClickHouse come back from Kafka exactly, and only those asked for. */
@ExtendWith(RealEngines.class)
class ReplayIT {
    private static final Instant MINUTE = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(30));
    private static final List<String> TABLES = List.of("transactions", "errors", "traffic_1m", "errors_1m");

    @TempDir
    static Path stateDir;

    static Engines engines;
    static Processor processor;
    static ProcessorConfig config;
    static Map<String, String> snapshot;

    @BeforeAll
    static void ingestAKnownSet(Engines realEngines) throws Exception {
        engines = realEngines;
        Map<String, String> values = PipelineSettings.forTest("replay", engines, engines.clickHouseUrl(), stateDir);
        config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        processor = Processor.start(config);
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < 120; i++) {
                String project = i % 3 == 0 ? "blog" : "shop";
                raw.transaction("replay.transactions", project, "r" + i, MINUTE.plusSeconds(i), new Integer[] {200, 404, 500}[i % 3]);
            }
            for (int i = 0; i < 30; i++) {
                raw.error("replay.errors", i % 2 == 0 ? "shop" : "blog", "x" + i, MINUTE.plusSeconds(i * 4), "E" + (i % 3));
            }
        }
        // Every table settled before the snapshot: the sink writes each output topic in its own polls.
        Await.until(Duration.ofSeconds(60), "120\t120\t30\t30", () -> query(
                "SELECT (SELECT sum(requests) FROM sluice_replay.traffic_1m FINAL), (SELECT count() FROM sluice_replay.transactions FINAL), "
                        + "(SELECT count() FROM sluice_replay.errors FINAL), (SELECT sum(errors) FROM sluice_replay.errors_1m FINAL)"));
        snapshot = dump();
    }

    @AfterAll
    static void stop() {
        processor.close();
    }

    @Test
    void droppedTablesAreRebuiltExactlyAndASecondReplayChangesNothing() {
        TABLES.forEach(table -> query("TRUNCATE TABLE sluice_replay." + table));

        List<Replay.TableSummary> first = replay(null);
        assertEquals(snapshot, dump());
        first.forEach(summary -> assertEquals(0, summary.rowsAlreadyPresent(), summary.toString()));

        List<Replay.TableSummary> second = replay(null);
        assertEquals(snapshot, dump());
        second.forEach(summary -> assertEquals(summary.rowsResent(), summary.rowsAlreadyPresent(), summary.toString()));
    }

    @Test
    void aDeletedTimeRangeIsRestored() {
        query("DELETE FROM sluice_replay.transactions WHERE timestamp < " + (MINUTE.getEpochSecond() + 60));
        assertEquals("60", query("SELECT count() FROM sluice_replay.transactions FINAL"));
        replay(null);
        assertEquals(snapshot, dump());
    }

    @Test
    void replayingOneProjectTouchesNoOtherProjectsRows() {
        TABLES.forEach(table -> query("TRUNCATE TABLE sluice_replay." + table));
        replay("shop");
        assertEquals("80\t0", query("SELECT countIf(project = 'shop'), countIf(project = 'blog') FROM sluice_replay.transactions FINAL"));
        assertEquals("80\t0", query("SELECT sumIf(requests, project = 'shop'), sumIf(requests, project = 'blog') FROM sluice_replay.traffic_1m FINAL"));
        replay(null); // leave the tables whole for the other tests
        assertEquals(snapshot, dump());
    }

    @Test
    void aRangeStartingBeforeTheOldestRetainedRecordIsReportedAndWhatExistsIsReplayed() throws Exception {
        Topics topics = config.kafka().topics();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", engines.kafkaBootstrapServers()))) {
            // Retention expiry, made real: drop the oldest record of partition 0 of a copy of the topic.
            String copy = "replay-retention.history";
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(copy, 1, (short) 1))).all().get();
            try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
                raw.send(copy, "shop", null, MINUTE, "{\"event_id\": \"old\", \"project\": \"shop\", \"timestamp\": " + MINUTE.toEpochMilli() + "}");
                raw.send(copy, "shop", null, MINUTE.plusSeconds(5), "{\"event_id\": \"kept\", \"project\": \"shop\", \"timestamp\": "
                        + MINUTE.plusSeconds(5).toEpochMilli() + "}");
            }
            admin.deleteRecords(Map.of(new TopicPartition(copy, 0), RecordsToDelete.beforeOffset(1))).all().get();
            Topics withCopy = new Topics(topics.transactions(), topics.errors(), topics.projects(), copy, topics.traffic(),
                    topics.errorHistory(), topics.errors1m(), topics.outcomes(), topics.deadLetters(), 1, (short) 1,
                    topics.rawRetention());
            RecordedReplay reported = new RecordedReplay();
            try (Client client = ClickHouseClients.create(config.clickHouse())) {
                List<Replay.TableSummary> summary = new Replay(new KafkaSettings(engines.kafkaBootstrapServers(), withCopy),
                        Duration.ofHours(24), client, config.clickHouse(), reported)
                        .run(new ReplayRequest(MINUTE.minus(Duration.ofDays(2)), Instant.now(), null,
                                Set.of(ReplayRequest.What.HISTORY), true));
                assertEquals(1, summary.get(0).rowsResent(), "what still exists is replayed");
            }
            assertEquals(List.of(copy), reported.olderRecordsDeleted, "the range starts before the oldest retained record");
        }
        assertEquals(snapshot, dump(), "a dry run writes nothing");
    }

    private static List<Replay.TableSummary> replay(String project) {
        try (Client client = ClickHouseClients.create(config.clickHouse())) {
            return new Replay(new KafkaSettings(engines.kafkaBootstrapServers(), config.kafka().topics()),
                    config.eventTimeHorizon(), client, config.clickHouse(), new RecordedReplay())
                    .run(new ReplayRequest(MINUTE.minus(Duration.ofHours(1)), Instant.now().plusSeconds(60), project,
                            Set.of(ReplayRequest.What.values()), false));
        }
    }

    /** Every row of every table, as ClickHouse returns them with FINAL, sorted. */
    private static Map<String, String> dump() {
        return Map.of(
                "transactions", query("SELECT * FROM sluice_replay.transactions FINAL ORDER BY project, event_id"),
                "errors", query("SELECT * EXCEPT payload, cityHash64(payload) FROM sluice_replay.errors FINAL ORDER BY project, event_id"),
                "traffic_1m", query("SELECT * FROM sluice_replay.traffic_1m FINAL ORDER BY project, environment, minute"),
                "errors_1m", query("SELECT * FROM sluice_replay.errors_1m FINAL ORDER BY project, environment, minute, exception_type"));
    }

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
