package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.HttpText;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** After a processor bug: a processor with a new application id and a higher generation recomputes from the raw topics. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RecomputeIT {
    @TempDir
    Path workDir;

    @Test
    void aRecomputeWithAHigherGenerationReplacesWrongCountsBesideLiveTraffic(Engines engines) throws Exception {
        Map<String, String> live = TestSettings.isolated("recompute", engines, workDir.resolve("live")).toMap();
        TopicSetup.ensureTopics(ProcessorConfig.from(new Settings(live)).kafka());
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        try (ProcessorService liveProcessor = ProcessorService.start(ProcessorConfig.from(new Settings(live)));
             RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < 40; i++) {
                raw.spreadTransaction("recompute.transactions", 3, "shop", "c" + i, minute.plusSeconds(i), 200, 0.25);
            }
            for (int i = 0; i < 6; i++) { // six sessions, the even ones crashed, each init sent twice
                raw.session("recompute.sessions", i % 3, "shop", i, minute, minute.plusSeconds(1), "\"init\": true, \"status\": \"ok\"");
                raw.session("recompute.sessions", i % 3, "shop", i, minute, minute.plusSeconds(2), "\"init\": true, \"status\": \"ok\"");
                raw.session("recompute.sessions", i % 3, "shop", i, minute, minute.plusSeconds(3),
                        "\"status\": \"" + (i % 2 == 0 ? "crashed" : "exited") + "\", \"errors\": 0");
            }
            Await.until(Duration.ofSeconds(60), "40", () -> requests(engines));
            assertEquals(SESSIONS, Await.until(Duration.ofSeconds(60), SESSIONS, () -> sessions(engines)));
            ClickHouseQuery.run(engines, "INSERT INTO sluice_recompute.sessions_1h (project, environment, release, hour, started, crashed, "
                    + "version) VALUES ('shop', 'production', 'shop@1.0', " + minute.truncatedTo(ChronoUnit.HOURS).getEpochSecond()
                    + ", 999, 999, 999)");
            assertEquals("999\t0\t999\t0\t0", sessions(engines));
            assertEquals("160", estimated(engines), "each transaction kept at 0.25 stands for 4");
            // A buggy processor wrote a count that is too high, with a higher version than the true one.
            ClickHouseQuery.run(engines, "INSERT INTO sluice_recompute.traffic_1m (project, environment, minute, requests, "
                    + "status_2xx, version) VALUES ('shop', 'production', " + minute.getEpochSecond() + ", 999, 999, 999)");
            assertEquals("999", requests(engines));

            Map<String, String> recompute = new HashMap<>(live);
            recompute.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-recompute-gen1");
            recompute.put("SLUICE_PROCESSOR_GENERATION", "1");
            recompute.put("SLUICE_PROCESSOR_STATE_DIR", workDir.resolve("gen1").toString());
            try (ProcessorService gen1 = ProcessorService.start(ProcessorConfig.from(new Settings(recompute)))) {
                assertEquals("40", Await.until(Duration.ofSeconds(60), "40", () -> requests(engines)));
                assertEquals("160", estimated(engines), "the recompute's estimate is the live one's");
                assertEquals(SESSIONS, Await.until(Duration.ofSeconds(60), SESSIONS, () -> sessions(engines)),
                        "the recompute's sessions are the live ones'");
                raw.spreadTransaction("recompute.transactions", 3, "shop", "c40", minute.plusSeconds(41), 200, 0.25); // live traffic meanwhile
                assertEquals("41", Await.until(Duration.ofSeconds(60), "41", () -> requests(engines)));
                assertEquals("164", estimated(engines));
            }
        }
    }

    /**
     * The upgrade: the migrations add requests_1m, requests_1h, errors_1h and traffic_1h empty, and a recompute
     * (new application id, generation one higher) fills them for the range the raw topics retain,
     * making the same route-limit decisions as the live processor did (hostile input included:
     * more routes than the limit, a lone surrogate, a huge route, retries, page loads).
     */
    @Test
    void anUpgradeFillsTheNewTablesForTheRetainedRangeByARecomputeThatDecidesTheSameRoutes(Engines engines) throws Exception {
        Map<String, String> live = TestSettings.isolated("upgrade", engines, workDir.resolve("live")).toMap();
        live.put("SLUICE_PROCESSOR_ROUTES_PER_DAY", Integer.toString(ROUTES_PER_DAY));
        TopicSetup.ensureTopics(ProcessorConfig.from(new Settings(live)).kafka());
        // Yesterday 02:00 to 03:40 UTC: one day of the route limit, whenever the test runs.
        Instant start = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(1)).plus(Duration.ofHours(2));
        int handled = 0;
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < TRANSACTIONS; i++) {
                String op = i % 7 == 0 ? "pageload" : "http.server";
                handled += op.equals("http.server") ? 1 : 0;
                String route = i == 1 ? "GET /caf\\ud800" : i == 2 ? "GET /" + "x".repeat(20_000) : "GET /page/" + letters(i % 150);
                String json = transaction(route, op, new Integer[] {200, 404, 500, null}[i % 4], i % 50, start.plusSeconds(i * 10L));
                raw.send("upgrade.transactions", "shop", "u" + i, start.plusSeconds(i * 10L), json);
                if (i % 10 == 0) { // the client's retry
                    raw.send("upgrade.transactions", "shop", "u" + i, start.plusSeconds(i * 10L), json);
                }
            }
            for (int i = 0; i < ERRORS; i++) {
                raw.send("upgrade.errors", "shop", "x" + i, start.plusSeconds(i * 60L), "{\"environment\": \"production\", \"transaction\": "
                        + "\"GET /page/" + letters(i % 3) + "\", \"exception\": {\"values\": [{\"type\": \"" + (i % 2 == 0 ? "ValueError" : "KeyError")
                        + "\", \"value\": \"boom\"}]}}");
            }
        }
        String totals = handled + "\t" + TRANSACTIONS + "\t" + TRANSACTIONS + "\t" + ERRORS + "\t" + handled;
        String counted;
        String limited;
        long collapsed;
        long preaggregated;
        try (ProcessorService liveProcessor = ProcessorService.start(ProcessorConfig.from(new Settings(live)))) {
            assertEquals(totals, Await.until(Duration.ofSeconds(90), totals, () -> upgradeTotals(engines)));
            assertEquals("480", Await.until(Duration.ofSeconds(60), "480", () -> routesLimitedInOutcomes(engines)),
                    "the outcomes count every event the limit counted under <other>");
            counted = upgradeRows(engines);
            limited = ClickHouseQuery.run(engines, "SELECT max(routes), sum(other) FROM (SELECT toDate(hour) AS day, "
                    + "uniqExact(route) AS routes, sumIf(requests, route = '<other>') AS other FROM sluice_upgrade.requests_1h FINAL GROUP BY day)");
            // The errors have 3 routes, below the limit: every event the metric counts is a request under <other>.
            String metrics = HttpText.get("http://127.0.0.1:" + liveProcessor.adminPort() + "/metrics");
            collapsed = HttpText.sum(metrics, Pattern.compile("(?m)^sluice_processor_routes_collapsed_total (\\d+)\\.0$"));
            preaggregated = HttpText.sum(metrics, Pattern.compile("(?m)^sluice_processor_preaggregated_transactions_total (\\d+)\\.0$"));
        }
        // Every transaction reached the per-route partial sums (again after an aborted transaction, if any).
        assertTrue(preaggregated >= TRANSACTIONS, preaggregated + " sluice_processor_preaggregated_transactions_total");
        // In partition order the day's first 40 (op, route) pairs are admitted: routes 0, the surrogate, the
        // huge one, 3..39, each under the op its first event came with (routes 0, 7, … 35 as page loads); every
        // later new pair is <other>, http.server on those six routes included (the client names the op too):
        // 480 events, on 40 routes and <other>.
        assertEquals(480, collapsed, "sluice_processor_routes_collapsed_total");
        assertEquals("41\t480", limited, "the limit's routes and <other> in the day, <other> holding what the metric counted");

        // As an existing deployment has them after the migration: empty tables, and nothing in the
        // new output topics (the version before wrote none), so only the recompute can fill them.
        for (String table : List.of("requests_1m", "requests_1h", "errors_1h", "traffic_1h")) {
            ClickHouseQuery.run(engines, "TRUNCATE TABLE sluice_upgrade." + table);
        }
        emptyTopics(engines, List.of("upgrade.requests-1m", "upgrade.requests-1h", "upgrade.errors-1h", "upgrade.traffic-1h"));
        Map<String, String> recompute = new HashMap<>(live);
        recompute.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-upgrade-gen1");
        recompute.put("SLUICE_PROCESSOR_GENERATION", "1");
        recompute.put("SLUICE_PROCESSOR_STATE_DIR", workDir.resolve("upgrade-gen1").toString());
        try (ProcessorService gen1 = ProcessorService.start(ProcessorConfig.from(new Settings(recompute)))) {
            assertEquals(totals, Await.until(Duration.ofSeconds(90), totals, () -> upgradeTotals(engines)));
            assertEquals(counted, Await.until(Duration.ofSeconds(30), counted, () -> upgradeRows(engines)));
            assertEquals("480", routesLimitedInOutcomes(engines), "the recompute's outcome rows replace the live ones, counting nothing twice");
            assertEquals("1\t1\t1\t1", ClickHouseQuery.run(engines, "SELECT (SELECT min(version) >= bitShiftLeft(toUInt64(1), 40) FROM "
                    + "sluice_upgrade.requests_1m), (SELECT min(version) >= bitShiftLeft(toUInt64(1), 40) FROM sluice_upgrade.requests_1h), "
                    + "(SELECT min(version) >= bitShiftLeft(toUInt64(1), 40) FROM sluice_upgrade.errors_1h), "
                    + "(SELECT min(version) >= bitShiftLeft(toUInt64(1), 40) FROM sluice_upgrade.traffic_1h)"), "every row is the recompute's");
        }
    }

    /** Deletes every record of the topics. */
    private static void emptyTopics(Engines engines, List<String> topics) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", engines.kafkaBootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).forEach((topic, description) ->
                    description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((partition, end) -> delete.put(partition, RecordsToDelete.beforeOffset(end.offset())));
            admin.deleteRecords(delete).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static final int ROUTES_PER_DAY = 40;
    private static final int TRANSACTIONS = 600;
    private static final int ERRORS = 60;

    /** Handled requests in traffic_1m, every transaction in requests_1m and in requests_1h, errors in errors_1h, handled requests in traffic_1h. */
    private static String upgradeTotals(Engines engines) {
        return ClickHouseQuery.run(engines, "SELECT (SELECT sum(requests) FROM sluice_upgrade.traffic_1m FINAL), "
                + "(SELECT sum(requests) FROM sluice_upgrade.requests_1m FINAL), (SELECT sum(requests) FROM sluice_upgrade.requests_1h FINAL), "
                + "(SELECT sum(errors) FROM sluice_upgrade.errors_1h FINAL), (SELECT sum(requests) FROM sluice_upgrade.traffic_1h FINAL)");
    }

    /** Events counted under the route <other>, as outcomes_1m holds them (summed over the counters, one per raw partition). */
    private static String routesLimitedInOutcomes(Engines engines) {
        return ClickHouseQuery.run(engines,
                "SELECT sum(events) FROM sluice_upgrade.outcomes_1m FINAL WHERE outcome = 'cardinality_limited:route'");
    }

    /** Every row of the four tables under FINAL, but its version (the huge route by its hash). */
    private static String upgradeRows(Engines engines) {
        String requests = " op, cityHash64(route), length(route), method, status_code, requests, timed, duration_sum_ms, "
                + "arrayStringConcat(duration_buckets, ',') FROM sluice_upgrade.";
        return ClickHouseQuery.run(engines, "SELECT minute," + requests + "requests_1m FINAL ORDER BY ALL") + "\n--\n"
                + ClickHouseQuery.run(engines, "SELECT hour," + requests + "requests_1h FINAL ORDER BY ALL") + "\n--\n"
                + ClickHouseQuery.run(engines, "SELECT hour, route, exception_type, errors FROM sluice_upgrade.errors_1h FINAL ORDER BY ALL") + "\n--\n"
                + ClickHouseQuery.run(engines, "SELECT hour, environment, requests, status_1xx, status_2xx, status_3xx, status_4xx, "
                        + "status_5xx, status_none FROM sluice_upgrade.traffic_1h FINAL ORDER BY ALL");
    }

    private static String transaction(String route, String op, Integer status, int durationMs, Instant end) {
        double endSeconds = end.toEpochMilli() / 1000.0;
        return "{\"transaction\": \"" + route + "\", \"transaction_info\": {\"source\": \"route\"}, \"environment\": \"production\", "
                + "\"contexts\": {\"trace\": {\"op\": \"" + op + "\"}}, \"start_timestamp\": " + (endSeconds - durationMs / 1000.0)
                + ", \"timestamp\": " + endSeconds + (status == null ? "" : ", \"tags\": {\"http.status_code\": \"" + status + "\"}") + "}";
    }

    /** A name of letters from g to z only: no normalization takes it for a number, id or hex token. */
    private static String letters(int n) {
        StringBuilder name = new StringBuilder();
        do {
            name.append((char) ('g' + n % 20));
            n /= 20;
        } while (n > 0);
        return name.toString();
    }

    private static String requests(Engines engines) {
        return ClickHouseQuery.run(engines, "SELECT sum(requests) FROM sluice_recompute.traffic_1m FINAL WHERE project = 'shop'");
    }

    /** Started, errored, crashed, abnormal and exited of the six sessions. */
    private static final String SESSIONS = "6\t3\t3\t0\t3";

    private static String sessions(Engines engines) {
        return ClickHouseQuery.run(engines, "SELECT sum(started), sum(errored), sum(crashed), sum(abnormal), sum(exited) "
                + "FROM sluice_recompute.sessions_1h FINAL WHERE project = 'shop'");
    }

    private static String estimated(Engines engines) {
        return ClickHouseQuery.run(engines, "SELECT sum(estimated_requests) FROM sluice_recompute.traffic_1m FINAL WHERE project = 'shop'");
    }
}
