package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.clickhouse.client.api.Client;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSink;
import io.sluice.sink.SinkLimits;
import io.sluice.sink.SinkTables;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * Known input, exact output: transactions and errors with retries, a poison record, and every
 * output row delivered to ClickHouse twice. Against the real broker and ClickHouse.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProcessorExactnessIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    private static final Instant MINUTE = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10));
    /** 200 distinct transactions: status by i % 5 → 200, 301, 404, 503, none. */
    private static final int TRANSACTIONS = 200;
    private static final int ERRORS = 50;
    /** Sessions sent one update at a time, and the sessions of one aggregate. */
    private static final int SESSIONS = 20;
    private static final int SESSIONS_STARTED = SESSIONS + 10;
    /** The raw topics' partitions in tests (TestSettings.isolated). */
    private static final int PARTITIONS = 3;

    @TempDir
    static Path stateDir;

    static Engines engines;
    static ProcessorService processor;
    static Map<String, String> values;
    static String db;

    @BeforeAll
    static void runKnownInput(Engines realEngines) throws Exception {
        engines = realEngines;
        values = TestSettings.isolated("exact", engines, stateDir).toMap();
        db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        processor = ProcessorService.start(config);
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < TRANSACTIONS; i++) {
                Integer[] statuses = {200, 301, 404, 503, null};
                // One project with all the traffic, spread over every raw partition as the gateway spreads it.
                raw.spreadTransaction("exact.transactions", PARTITIONS, "shop", "t" + i, MINUTE.plusMillis(i * 100L), statuses[i % 5]);
                if (i % 5 == 0) { // every fifth is retried by its client, same event id (same partition), received later
                    raw.spreadTransaction("exact.transactions", PARTITIONS, "shop", "t" + i, MINUTE.plusSeconds(30), statuses[i % 5]);
                }
            }
            raw.send("exact.transactions", "shop", null, MINUTE, "{\"transaction\": \"poison without headers\"}");
            for (int i = 0; i < ERRORS; i++) {
                raw.error("exact.errors", "shop", "e" + i, MINUTE.plusSeconds(1), i % 2 == 0 ? "ValueError" : "KeyError");
                if (i % 10 == 0) {
                    raw.error("exact.errors", "shop", "e" + i, MINUTE.plusSeconds(2), i % 2 == 0 ? "ValueError" : "KeyError");
                }
            }
            sessions(raw);
        }
        // Every table settled: the sink writes each output topic in its own polls, so one table
        // being complete says nothing about the others.
        String settled = TRANSACTIONS + "\t" + TRANSACTIONS + "\t" + ERRORS + "\t" + ERRORS + "\t" + TRANSACTIONS + "\t" + TRANSACTIONS
                + "\t" + ERRORS + "\t" + TRANSACTIONS + "\t" + SESSIONS_STARTED;
        Await.until(ARRIVAL, settled, () -> query("SELECT (SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), "
                + "(SELECT count() FROM " + db + ".transactions FINAL), (SELECT count() FROM " + db + ".errors FINAL), "
                + "(SELECT sum(errors) FROM " + db + ".errors_1m FINAL), (SELECT sum(requests) FROM " + db + ".requests_1m FINAL), "
                + "(SELECT sum(requests) FROM " + db + ".requests_1h FINAL), (SELECT sum(errors) FROM " + db + ".errors_1h FINAL), "
                + "(SELECT sum(requests) FROM " + db + ".traffic_1h FINAL), (SELECT sum(started) FROM " + db + ".sessions_1h FINAL)"));
    }

    /**
     * 20 sessions, each begun by an init update (sent twice: a retry) on the partition of its id, as
     * the gateway sends them: by i % 4 then errored (twice, errors 1 then 2), crashed, exited or
     * abnormal; and an aggregate (exited 7, errored 2, crashed 1) sent twice.
     */
    private static void sessions(RawEvents raw) {
        String[] ends = {"\"status\": \"ok\", \"errors\": 1", "\"status\": \"crashed\", \"errors\": 1",
                "\"status\": \"exited\", \"errors\": 0", "\"status\": \"abnormal\", \"errors\": 0"};
        for (int i = 0; i < SESSIONS; i++) {
            String init = "\"init\": true, \"status\": \"ok\", \"errors\": 0";
            raw.session("exact.sessions", i % PARTITIONS, "shop", i, MINUTE, MINUTE.plusSeconds(1), init);
            raw.session("exact.sessions", i % PARTITIONS, "shop", i, MINUTE, MINUTE.plusSeconds(5), init);
            raw.session("exact.sessions", i % PARTITIONS, "shop", i, MINUTE, MINUTE.plusSeconds(10), ends[i % 4]);
            if (i % 4 == 0) {
                raw.session("exact.sessions", i % PARTITIONS, "shop", i, MINUTE, MINUTE.plusSeconds(20), "\"status\": \"exited\", \"errors\": 2");
            }
        }
        String aggregate = "{\"attrs\": {\"release\": \"shop@1.0\", \"environment\": \"production\"}, \"aggregates\": [{\"started\": \""
                + MINUTE + "\", \"exited\": 7, \"errored\": 2, \"crashed\": 1}]}";
        raw.send("exact.sessions", 0, "shop", "a99a99a99a99a99a99a99a99a99a99a9", MINUTE.plusSeconds(30), aggregate);
        raw.send("exact.sessions", 0, "shop", "a99a99a99a99a99a99a99a99a99a99a9", MINUTE.plusSeconds(40), aggregate);
    }

    @AfterAll
    static void stop() {
        if (processor != null) {
            processor.close();
        }
    }

    @Test
    void trafficCountsAreExactPerStatusClassDespiteRetries() {
        assertEquals("200\t40\t40\t40\t40\t40", trafficTotals());
    }

    @Test
    void trafficHoursAreExactPerStatusClassDespiteRetries() {
        assertEquals("200\t40\t40\t40\t40\t40", trafficHourTotals());
        assertEquals("1", query("SELECT count() = uniqExact(project, environment, hour) FROM " + db + ".traffic_1h FINAL"),
                "one row per key under FINAL");
    }

    @Test
    void oneProjectSpreadOverThreePartitionsIsCountedByThreeTasks() {
        Map<String, Long> byTask = processor.preAggregation().eventsByTask();
        assertEquals(java.util.Set.of("0_0", "0_1", "0_2"), byTask.keySet(), byTask::toString);
        assertEquals(TRANSACTIONS, byTask.values().stream().mapToLong(Long::longValue).sum(), byTask::toString);
        assertTrue(byTask.values().stream().allMatch(events -> events >= TRANSACTIONS / 6), "each task a share: " + byTask);
    }

    @Test
    void sessionCountsAreExactDespiteLaterUpdatesAndRetries() {
        assertEquals("30\t18\t6\t5\t12", sessionTotals(), "started, errored, crashed, abnormal, exited");
    }

    @Test
    void everyTransactionIsOneHistoryRow() {
        assertEquals("200\t200", query("SELECT count(), uniqExact(event_id) FROM " + db + ".transactions FINAL"));
        assertEquals("40", query("SELECT countIf(status_code IS NULL) FROM " + db + ".transactions FINAL"));
    }

    @Test
    void errorCountsAreExactPerExceptionTypeDespiteRetries() {
        assertEquals("KeyError\t25\nValueError\t25", query("SELECT exception_type, sum(errors) FROM " + db
                + ".errors_1m FINAL GROUP BY exception_type ORDER BY exception_type"));
        assertEquals("50", query("SELECT count() FROM " + db + ".errors FINAL"));
    }

    @Test
    void requestCountsAreExactPerStatusCodeInMinutesAndHoursDespiteRetries() {
        String perStatus = "0\t40\n200\t40\n301\t40\n404\t40\n503\t40";
        assertEquals(perStatus, query("SELECT status_code, sum(requests) FROM " + db + ".requests_1m FINAL GROUP BY status_code ORDER BY status_code"));
        assertEquals(perStatus, query("SELECT status_code, sum(requests) FROM " + db + ".requests_1h FINAL GROUP BY status_code ORDER BY status_code"));
        assertEquals("1", query("SELECT count() = uniqExact(project, environment, hour, op, route, method, status_code) FROM "
                + db + ".requests_1h FINAL"), "one row per key under FINAL");
    }

    @Test
    void errorCountsPerRouteAndHourAreExactDespiteRetries() {
        assertEquals("KeyError\t25\nValueError\t25", query("SELECT exception_type, sum(errors) FROM " + db
                + ".errors_1h FINAL GROUP BY exception_type ORDER BY exception_type"));
    }

    @Test
    void aPoisonRecordWaitsInTheDeadLettersWithItsReason() {
        var dead = KafkaRecords.find(engines, "exact.dead-letters", 1, Duration.ofSeconds(10), record -> true);
        assertEquals(1, dead.size());
        assertEquals("header sluice.event_id is missing", KafkaRecords.header(dead.get(0), "sluice.dead_letter.reason"));
    }

    @Test
    void theSameRowsDeliveredAgainChangeNoNumber() throws Exception {
        String before = trafficTotals() + " " + trafficHourTotals() + " " + query("SELECT count() FROM " + db + ".transactions FINAL")
                + " " + query("SELECT sum(errors) FROM " + db + ".errors_1m FINAL") + " " + requestTotals() + " " + sessionTotals();
        // What the processor's own sink inserted per table: every record of the output topics.
        Map<String, Long> firstDelivery = insertedRows(get("/metrics"));
        assertEquals(200L, firstDelivery.get(db + ".transactions"), firstDelivery::toString);
        assertEquals(50L, firstDelivery.get(db + ".errors"), firstDelivery::toString);
        assertEquals(9, firstDelivery.size(), firstDelivery::toString);
        // A second sink with a new group reads every output topic from the start and inserts it all again.
        // (The processor's own topic-table map: a hand-written one named a traffic topic that does not exist,
        // and the aggregates were never delivered again.)
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        try (Client client = ClickHouseClients.create(config.clickHouse()); PrometheusMetrics againMetrics = new PrometheusMetrics()) {
            ClickHouseSink again = new ClickHouseSink(client, KafkaSettings.at(engines.kafkaBootstrapServers()), "exact-redelivery", "",
                    SinkTables.of(config.kafka().topics(), db).tableByTopic(), config.kafka().topics().deadLetters(),
                    new SinkLimits(10_000, 16 << 20, Duration.ofMillis(200), Duration.ofSeconds(60)), againMetrics);
            Thread thread = new Thread(again);
            thread.start();
            try {
                // The second delivery happened, for every table: ClickHouse acknowledged each row again.
                Await.until("the second sink to insert every row of every table again", ARRIVAL, firstDelivery, () -> insertedRows(againMetrics.scrapeText()));
            } finally {
                again.close();
                thread.join(30_000);
            }
        }
        String after = trafficTotals() + " " + trafficHourTotals() + " " + query("SELECT count() FROM " + db + ".transactions FINAL")
                + " " + query("SELECT sum(errors) FROM " + db + ".errors_1m FINAL") + " " + requestTotals() + " " + sessionTotals();
        System.out.println("delivery report (every output row delivered twice): re-inserted " + firstDelivery
                + "; totals before " + before + ", after " + after);
        assertEquals(before, after);
    }

    @Test
    void theAdminPortReportsReadinessAndRowsInsertedPerTable() throws Exception {
        HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create(admin("/readyz"))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode(), ready.body());
        String metrics = get("/metrics");
        assertTrue(metrics.contains("sluice_sink_rows_inserted_total{table=\"" + db + ".transactions\"} 200.0\n"), metrics);
        assertTrue(metrics.contains("sluice_processor_streams_running 1.0\n"), metrics);
    }

    /** {@code sluice_sink_rows_inserted_total} per table of this test's database. */
    private static Map<String, Long> insertedRows(String metrics) {
        Map<String, Long> rows = new TreeMap<>();
        Matcher line = Pattern.compile("(?m)^sluice_sink_rows_inserted_total\\{table=\"(" + Pattern.quote(db) + "\\.[a-z_0-9]+)\"} (\\d+)\\.0$")
                .matcher(metrics);
        while (line.find()) {
            rows.put(line.group(1), Long.parseLong(line.group(2)));
        }
        return rows;
    }

    private static String get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(admin(path))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String admin(String path) {
        return "http://127.0.0.1:" + processor.adminPort() + path;
    }

    private static String trafficHourTotals() {
        return query("SELECT sum(requests), sum(status_2xx), sum(status_3xx), sum(status_4xx), sum(status_5xx), sum(status_none) FROM "
                + db + ".traffic_1h FINAL WHERE project = 'shop'");
    }

    private static String sessionTotals() {
        return query("SELECT sum(started), sum(errored), sum(crashed), sum(abnormal), sum(exited) FROM " + db + ".sessions_1h FINAL");
    }

    private static String trafficTotals() {
        return query("SELECT sum(requests), sum(status_2xx), sum(status_3xx), sum(status_4xx), sum(status_5xx), sum(status_none) FROM "
                + db + ".traffic_1m FINAL WHERE project = 'shop'");
    }

    /** Requests per minute and per hour, their durations and errors per route and hour, as read under FINAL. */
    private static String requestTotals() {
        return query("SELECT (SELECT sum(requests) FROM " + db + ".requests_1m FINAL), (SELECT sum(requests) FROM " + db
                + ".requests_1h FINAL), (SELECT count() FROM " + db + ".requests_1h FINAL), (SELECT sum(errors) FROM " + db
                + ".errors_1h FINAL)");
    }

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
