package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.clickhouse.client.api.Client;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.kafka.TopicSetup;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.OutcomeRow;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayRequest;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** After an outage: rows lost in ClickHouse come back from Kafka exactly, and only those asked for. */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class ReplayIT {
    private static final Instant MINUTE = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(30));
    private static final List<String> TABLES = List.of("transactions", "errors", "traffic_1m", "errors_1m", "outcomes_1m",
            "requests_1m", "requests_1h", "errors_1h", "traffic_1h", "sessions_1h");

    @TempDir
    static Path stateDir;

    static Engines engines;
    static ProcessorService processor;
    static ProcessorConfig config;
    static Map<String, String> snapshot;

    @BeforeAll
    static void ingestAKnownSet(Engines realEngines) throws Exception {
        engines = realEngines;
        Map<String, String> values = TestSettings.isolated("replay", engines, stateDir).toMap();
        config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        processor = ProcessorService.start(config);
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < 120; i++) {
                String project = i % 3 == 0 ? "blog" : "shop";
                // Each project over every raw partition: shop's rows were written by several partial sums each.
                // blog's clients sample at 0.25: its estimates (4 per stored request) are rebuilt with the rest.
                raw.spreadTransaction("replay.transactions", 3, project, "r" + i, MINUTE.plusSeconds(i), new Integer[] {200, 404, 500}[i % 3],
                        project.equals("blog") ? 0.25 : null);
            }
            for (int i = 0; i < 30; i++) {
                raw.error("replay.errors", i % 2 == 0 ? "shop" : "blog", "x" + i, MINUTE.plusSeconds(i * 4), "E" + (i % 3));
            }
            for (int i = 0; i < 8; i++) { // eight sessions, each init sent twice, the odd ones crashed
                raw.session("replay.sessions", i % 3, "shop", i, MINUTE, MINUTE.plusSeconds(1), "\"init\": true, \"status\": \"ok\"");
                raw.session("replay.sessions", i % 3, "shop", i, MINUTE, MINUTE.plusSeconds(2), "\"init\": true, \"status\": \"ok\"");
                if (i % 2 == 1) {
                    raw.session("replay.sessions", i % 3, "shop", i, MINUTE, MINUTE.plusSeconds(3), "\"status\": \"crashed\"");
                }
            }
            // Two minutes of a gateway's outcome counts (absolute: the later row of a key replaces the earlier).
            String outcomes = config.kafka().topics().outcomes();
            for (int m = 0; m < 2; m++) {
                long minute = MINUTE.getEpochSecond() + 60L * m;
                raw.outcome(outcomes, OutcomeRow.of("shop", minute, Outcome.ACCEPTED, "g1", 30 + m));
                raw.outcome(outcomes, OutcomeRow.of("shop", minute, Outcome.ACCEPTED, "g1", 40 + m));
                raw.outcome(outcomes, OutcomeRow.of("blog", minute, Outcome.QUOTA_EXCEEDED, "g1", 3 + m));
            }
        }
        // Every table settled before the snapshot: the sink writes each output topic in its own polls.
        Await.until(Duration.ofSeconds(60), "120\t120\t30\t30\t88", () -> query(
                "SELECT (SELECT sum(requests) FROM sluice_replay.traffic_1m FINAL), (SELECT count() FROM sluice_replay.transactions FINAL), "
                        + "(SELECT count() FROM sluice_replay.errors FINAL), (SELECT sum(errors) FROM sluice_replay.errors_1m FINAL), "
                        + "(SELECT sum(events) FROM sluice_replay.outcomes_1m FINAL)"));
        Await.until(Duration.ofSeconds(60), "120\t120\t30\t120\t8\t4", () -> query("SELECT (SELECT sum(requests) FROM sluice_replay.requests_1m FINAL), "
                + "(SELECT sum(requests) FROM sluice_replay.requests_1h FINAL), (SELECT sum(errors) FROM sluice_replay.errors_1h FINAL), "
                + "(SELECT sum(requests) FROM sluice_replay.traffic_1h FINAL), (SELECT sum(started) FROM sluice_replay.sessions_1h FINAL), "
                + "(SELECT sum(crashed) FROM sluice_replay.sessions_1h FINAL)"));
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
        assertEquals("8\t4\t4", query("SELECT sum(started), sum(errored), sum(crashed) FROM sluice_replay.sessions_1h FINAL"),
                "the sessions, rebuilt");
        assertEquals("40\t160\t160\t160\t160", query("SELECT (SELECT sum(requests) FROM sluice_replay.traffic_1m FINAL WHERE project = 'blog'), "
                + "(SELECT sum(estimated_requests) FROM sluice_replay.traffic_1m FINAL WHERE project = 'blog'), "
                + "(SELECT sum(estimated_requests) FROM sluice_replay.traffic_1h FINAL WHERE project = 'blog'), "
                + "(SELECT sum(estimated_requests) FROM sluice_replay.requests_1m FINAL WHERE project = 'blog'), "
                + "(SELECT sum(estimated_requests) FROM sluice_replay.requests_1h FINAL WHERE project = 'blog')"),
                "the sampled project's estimates, rebuilt");

        List<Replay.TableSummary> second = replay(null);
        assertEquals(snapshot, dump());
        second.forEach(summary -> assertEquals(summary.rowsResent(), summary.rowsAlreadyPresent(), summary.toString()));
    }

    /**
     * --from/--to are obeyed: with every table emptied, a replay of the second minute brings back
     * exactly that minute's rows of every table (history by event time, aggregates by minute), and
     * nothing of the first.
     */
    @Test
    void replayingATimeRangeResendsOnlyRowsInThatRange() {
        Instant from = MINUTE.plusSeconds(60);
        Instant to = MINUTE.plusSeconds(120);
        Map<String, String> inRange = dump(from, to);
        String since = "toDateTime(" + from.getEpochSecond() + ")";
        assertEquals("60\t1\t41", query("SELECT (SELECT count() FROM sluice_replay.transactions FINAL WHERE timestamp >= " + since
                + "), (SELECT uniqExact(minute) FROM sluice_replay.traffic_1m FINAL WHERE minute >= " + since
                + "), (SELECT sumIf(events, project = 'shop') FROM sluice_replay.outcomes_1m FINAL WHERE minute >= " + since + ")"),
                "the second minute holds rows of its own");
        TABLES.forEach(table -> query("TRUNCATE TABLE sluice_replay." + table));

        replay(null, from, to);
        assertEquals(inRange, dump(), "every table holds exactly the rows of the range");
        assertEquals("60\t60\t15\t15\t45", query("SELECT (SELECT count() FROM sluice_replay.transactions FINAL), "
                + "(SELECT sum(requests) FROM sluice_replay.traffic_1m FINAL), (SELECT count() FROM sluice_replay.errors FINAL), "
                + "(SELECT sum(errors) FROM sluice_replay.errors_1m FINAL), (SELECT sum(events) FROM sluice_replay.outcomes_1m FINAL)"));

        replay(null); // leave the tables whole for the other tests
        assertEquals(snapshot, dump());
    }

    /**
     * "Interrupted, it is simply run again": a replay stopped after its first table (the history
     * written, the other tables not yet) is run again: every table ends exactly as before the loss,
     * each event id once, and the second run reports the history rows as already present.
     */
    @Test
    void aReplayInterruptedMidwayIsSimplyRunAgain() {
        TABLES.forEach(table -> query("TRUNCATE TABLE sluice_replay." + table));
        RecordedReplay interrupting = new RecordedReplay() {
            @Override
            public void tableDone(String table) {
                throw new IllegalStateException("interrupted after " + table);
            }
        };
        IllegalStateException stopped = assertThrows(IllegalStateException.class, () -> replayWith(interrupting));
        assertEquals("interrupted after sluice_replay.transactions", stopped.getMessage());
        assertEquals("120\t0\t0\t0\t0", query("SELECT (SELECT count() FROM sluice_replay.transactions FINAL), "
                + "(SELECT count() FROM sluice_replay.errors FINAL), (SELECT count() FROM sluice_replay.traffic_1m FINAL), "
                + "(SELECT count() FROM sluice_replay.errors_1m FINAL), (SELECT count() FROM sluice_replay.outcomes_1m FINAL)"),
                "stopped midway: the history is back, the rest is not");

        List<Replay.TableSummary> again = replayWith(new RecordedReplay());
        assertEquals(snapshot, dump());
        assertEquals("120\t120\t30\t30", query("SELECT (SELECT count() FROM sluice_replay.transactions FINAL), "
                + "(SELECT uniqExact(event_id) FROM sluice_replay.transactions FINAL), "
                + "(SELECT count() FROM sluice_replay.errors FINAL), (SELECT uniqExact(event_id) FROM sluice_replay.errors FINAL)"),
                "each event id once");
        assertEquals(List.of("sluice_replay.transactions 120 120", "sluice_replay.errors 30 0"), again.subList(0, 2).stream()
                .map(summary -> summary.table() + " " + summary.rowsResent() + " " + summary.rowsAlreadyPresent()).toList());
    }

    /** Progress as the CLI prints it: the last report of every table has read all its records and counts the rows re-sent. */
    @Test
    void theLastProgressOfEveryTableIsItsWholeTotal() {
        List<String> last = new java.util.ArrayList<>();
        RecordedReplay progress = new RecordedReplay() {
            @Override
            public void progress(String table, long recordsRead, long recordsTotal, long rows, Duration elapsed) {
                last.removeIf(line -> line.startsWith(table + " "));
                last.add(table + " " + recordsRead + "/" + recordsTotal + " " + rows);
            }
        };
        List<Replay.TableSummary> summaries = replayWith(progress);
        assertEquals(summaries.stream().map(s -> s.table() + " " + s.recordsRead() + "/" + s.recordsRead() + " " + s.rowsResent())
                .toList(), last);
        assertEquals(List.of(120L, 30L), summaries.subList(0, 2).stream().map(Replay.TableSummary::rowsResent).toList());
        assertEquals(snapshot, dump());
    }

    @Test
    void droppedOutcomeCountsAreRebuiltWithTheirLatestValue() {
        query("TRUNCATE TABLE sluice_replay.outcomes_1m");
        replay(null);
        assertEquals("blog\tquota_exceeded\t3\nblog\tquota_exceeded\t4\nshop\taccepted\t40\nshop\taccepted\t41",
                query("SELECT project, outcome, events FROM sluice_replay.outcomes_1m FINAL ORDER BY project, minute"));
        assertEquals(snapshot, dump());
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
            Topics withCopy = topics.withHistory(copy);
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

    private static List<Replay.TableSummary> replayWith(RecordedReplay listener) {
        try (Client client = ClickHouseClients.create(config.clickHouse())) {
            return new Replay(new KafkaSettings(engines.kafkaBootstrapServers(), config.kafka().topics()),
                    config.eventTimeHorizon(), client, config.clickHouse(), listener)
                    .run(new ReplayRequest(MINUTE.minus(Duration.ofHours(1)), Instant.now().plusSeconds(60), null,
                            Set.of(ReplayRequest.What.values()), false));
        }
    }

    private static List<Replay.TableSummary> replay(String project) {
        return replay(project, MINUTE.minus(Duration.ofHours(1)), Instant.now().plusSeconds(60));
    }

    private static List<Replay.TableSummary> replay(String project, Instant from, Instant to) {
        try (Client client = ClickHouseClients.create(config.clickHouse())) {
            return new Replay(new KafkaSettings(engines.kafkaBootstrapServers(), config.kafka().topics()),
                    config.eventTimeHorizon(), client, config.clickHouse(), new RecordedReplay())
                    .run(new ReplayRequest(from, to, project, Set.of(ReplayRequest.What.values()), false));
        }
    }

    /** Every row of every table, as ClickHouse returns them with FINAL, sorted. */
    private static Map<String, String> dump() {
        return dump(Instant.EPOCH, Instant.now().plus(Duration.ofDays(1)));
    }

    /** The rows of every table whose time (event time, or minute) is in [from, to). */
    private static Map<String, String> dump(Instant from, Instant to) {
        String events = " WHERE timestamp >= fromUnixTimestamp64Milli(" + from.toEpochMilli() + ") AND timestamp < fromUnixTimestamp64Milli("
                + to.toEpochMilli() + ")";
        String minutes = " WHERE minute >= toDateTime(" + from.getEpochSecond() + ") AND minute < toDateTime(" + to.getEpochSecond() + ")";
        String hours = " WHERE hour >= toDateTime(" + from.getEpochSecond() + ") AND hour < toDateTime(" + to.getEpochSecond() + ")";
        return Map.of(
                "transactions", query("SELECT * FROM sluice_replay.transactions FINAL" + events + " ORDER BY project, event_id"),
                "errors", query("SELECT * EXCEPT payload, cityHash64(payload) FROM sluice_replay.errors FINAL" + events
                        + " ORDER BY project, event_id"),
                "traffic_1m", query("SELECT * FROM sluice_replay.traffic_1m FINAL" + minutes + " ORDER BY project, environment, minute"),
                "errors_1m", query("SELECT * FROM sluice_replay.errors_1m FINAL" + minutes
                        + " ORDER BY project, environment, minute, exception_type"),
                "outcomes_1m", query("SELECT * FROM sluice_replay.outcomes_1m FINAL" + minutes
                        + " ORDER BY project, minute, outcome, gateway"),
                "requests_1m", query("SELECT * FROM sluice_replay.requests_1m FINAL" + minutes + " ORDER BY ALL"),
                "requests_1h", query("SELECT * FROM sluice_replay.requests_1h FINAL" + hours + " ORDER BY ALL"),
                "errors_1h", query("SELECT * FROM sluice_replay.errors_1h FINAL" + hours + " ORDER BY ALL"),
                "traffic_1h", query("SELECT * FROM sluice_replay.traffic_1h FINAL" + hours + " ORDER BY ALL"),
                "sessions_1h", query("SELECT * FROM sluice_replay.sessions_1h FINAL" + hours + " ORDER BY ALL"));
    }

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
