package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Settings;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** {@code ./sluice stats} on demo data (scale 0.001): errors, refusals, top routes and status codes, as text and JSON. */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StatsCommandIT {
    private static final String DB = "sluice_statscli";
    private static final String SINCE = "toDateTime(now() - INTERVAL 2 HOUR)";
    private static Engines engines;
    private static Settings settings;

    @BeforeAll
    static void demoData(Engines realEngines) {
        engines = realEngines;
        settings = TestSettings.on(engines).with("SLUICE_CLICKHOUSE_DATABASE", DB).build();
        CliRunner.Result fill = CliRunner.run(settings, "demo-data", "--scale", "0.001");
        assertEquals(0, fill.exitCode(), fill.err());
    }

    @Test
    void jsonHoldsWhatTheAggregatesCountForTheRange() throws Exception {
        CliRunner.Result result = CliRunner.run(settings, "stats", "--project", DemoData.HUGE_PROJECT, "--since", "2h", "--json");
        assertEquals(0, result.exitCode(), result.err());
        JsonNode stats = new ObjectMapper().readTree(result.out());
        String huge = "project = '" + DemoData.HUGE_PROJECT + "'";
        assertEquals(query("SELECT sum(requests) FROM " + DB + ".traffic_1m FINAL WHERE " + huge + " AND minute >= " + SINCE),
                stats.get("requests").asText());
        long codes = 0;
        for (JsonNode count : stats.get("status_codes")) {
            codes += count.asLong();
        }
        assertEquals(stats.get("requests").asLong(), codes, "handled requests by code add up to the traffic");
        assertEquals(query("SELECT sum(status_5xx) FROM " + DB + ".traffic_1m FINAL WHERE " + huge + " AND minute >= " + SINCE),
                Long.toString(stats.at("/status_classes/5xx").asLong()));
        long errors = 0;
        for (JsonNode count : stats.get("errors")) {
            errors += count.asLong();
        }
        assertEquals(query("SELECT sum(errors) FROM " + DB + ".errors_1m FINAL WHERE " + huge + " AND minute >= " + SINCE), Long.toString(errors));
        assertEquals(query("SELECT sumIf(events, outcome = 'accepted'), sumIf(events, outcome = 'quota_exceeded') FROM " + DB
                        + ".outcomes_1m FINAL WHERE " + huge + " AND minute >= " + SINCE),
                stats.at("/outcomes/accepted").asLong() + "\t" + stats.at("/outcomes/quota_exceeded").asLong());
        assertEquals(query("SELECT route FROM " + DB + ".requests_1m FINAL WHERE " + huge + " AND minute >= " + SINCE
                + " GROUP BY route ORDER BY sum(requests) DESC LIMIT 1"), stats.at("/top_routes/0/route").asText());
        assertEquals(10, stats.get("last_requests").size());
    }

    @Test
    void textShowsStatusCodesTopRoutesErrorsAndRefusals() {
        CliRunner.Result result = CliRunner.run(settings, "stats", "--project", DemoData.HUGE_PROJECT, "--since", "2h");
        assertEquals(0, result.exitCode(), result.err());
        String shown = result.out();
        for (String part : new String[] {"Status codes\n  200 ", "Top routes", "  GET /products/{id} ", "Errors: ", "  ValueError ",
                "Outcomes (accepted, and refused why)\n  accepted ", "  quota_exceeded ", "Last requests\n  "}) {
            assertTrue(shown.contains(part), part + " is not in\n" + shown);
        }
    }

    @Test
    void aSampledProjectsEstimateStandsBesideItsCountsAndSaysSo() throws Exception {
        String minute = "toStartOfMinute(now() - INTERVAL 5 MINUTE)";
        query("INSERT INTO " + DB + ".traffic_1m (project, environment, minute, requests, status_2xx, status_5xx, version,"
                + " estimated_requests, estimated_status_2xx, estimated_status_5xx) VALUES ('sampled', 'production', " + minute
                + ", 10, 8, 2, 10, 40, 32, 8)");
        query("INSERT INTO " + DB + ".requests_1m (project, environment, minute, op, route, method, status_code, requests, timed,"
                + " duration_sum_ms, duration_buckets, version, estimated_requests) VALUES ('sampled', 'production', " + minute
                + ", 'http.server', 'GET /a', 'GET', 200, 8, 0, 0, [], 8, 32)");
        JsonNode stats = new ObjectMapper().readTree(CliRunner.run(settings, "stats", "--project", "sampled", "--since", "30m", "--json").out());
        assertEquals(List.of(10L, 40L, 32L, 8L, 32L), List.of(stats.get("requests").asLong(), stats.get("estimated_requests").asLong(),
                stats.at("/estimated_status_classes/2xx").asLong(), stats.at("/estimated_status_classes/5xx").asLong(),
                stats.at("/estimated_status_codes/200").asLong()));
        assertTrue(stats.get("sampled").asBoolean());
        String shown = CliRunner.run(settings, "stats", "--project", "sampled", "--since", "30m").out();
        for (String part : new String[] {"10 requests stored, an estimated 40 happened", "sample rate", "  200  8  est. 32"}) {
            assertTrue(shown.contains(part), part + " is not in\n" + shown);
        }
    }

    @Test
    void releasesShowTheirSessionsAndCrashFreeRate() throws Exception {
        String hour = "toStartOfHour(now() - INTERVAL 30 MINUTE)";
        query("INSERT INTO " + DB + ".sessions_1h (project, environment, release, hour, started, errored, crashed, abnormal, exited, version)"
                + " VALUES ('released', 'production', 'shop@1.2.0', " + hour + ", 200, 12, 5, 1, 180, 398),"
                + " ('released', 'production', 'shop@1.3.0', " + hour + ", 50, 0, 0, 0, 50, 100)");
        JsonNode stats = new ObjectMapper().readTree(CliRunner.run(settings, "stats", "--project", "released", "--since", "2h", "--json").out());
        assertEquals("[{\"release\":\"shop@1.2.0\",\"sessions\":200,\"crashed\":5,\"errored\":12,\"crash_free_percent\":97.5},"
                + "{\"release\":\"shop@1.3.0\",\"sessions\":50,\"crashed\":0,\"errored\":0,\"crash_free_percent\":100.0}]",
                stats.get("release_health").toString());
        String shown = CliRunner.run(settings, "stats", "--project", "released", "--since", "2h").out();
        assertTrue(shown.contains("  shop@1.2.0" + " ".repeat(42) + "       200     97.50%        5\n"), shown);
    }

    @Test
    void anUnsampledProjectShowsNoEstimate() {
        String shown = CliRunner.run(settings, "stats", "--project", DemoData.HUGE_PROJECT, "--since", "2h").out();
        assertFalse(shown.contains("est."), shown);
    }

    /**
     * --watch reads again, every 5 seconds, until interrupted: a reading taken after rows arrived shows
     * them, one JSON object per line with --json.
     */
    @Test
    void watchPrintsAReadingEveryFiveSecondsWithWhatArrivedSinceUntilInterrupted() throws Exception {
        String project = "watched";
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        AtomicInteger exitCode = new AtomicInteger(-1);
        Thread watching = new Thread(() -> exitCode.set(new SluiceCli(settings, out, out)
                .run(new String[] {"stats", "--project", project, "--since", "2h", "--json", "--watch"})), "stats-watch");
        watching.start();
        try {
            assertEquals("0", Await.until(Duration.ofSeconds(30), "0", () -> lastReading(printed, 1, "/requests")));
            query("INSERT INTO " + DB + ".traffic_1m (project, environment, minute, requests, status_2xx, version) "
                    + "VALUES ('" + project + "', 'production', toStartOfMinute(now()), 7, 7, 7)");
            long start = System.nanoTime();
            assertEquals("7", Await.until(Duration.ofSeconds(30), "7", () -> lastReading(printed, 2, "/requests")),
                    "the next reading shows the rows that arrived meanwhile");
            double waited = (System.nanoTime() - start) / 1e9;
            assertTrue(waited < 10, "the next reading came 5 s after the one before (and its queries' time), not " + waited + " s");
        } finally {
            watching.interrupt();
            watching.join(Duration.ofSeconds(10).toMillis());
        }
        assertFalse(watching.isAlive(), "an interrupt ends the watch");
        int readings = lines(printed).size();
        Thread.sleep(6_000);
        assertEquals(readings, lines(printed).size(), "no reading after the interrupt");
        assertEquals(1, exitCode.get(), "interrupted, as Ctrl-C ends it");
    }

    /** The field of reading number {@code n} (from 1), or "" before it was printed. */
    private static String lastReading(ByteArrayOutputStream printed, int n, String field) {
        List<String> lines = lines(printed);
        try {
            return lines.size() < n ? "" : new ObjectMapper().readTree(lines.get(n - 1)).at(field).asText();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> lines(ByteArrayOutputStream printed) {
        synchronized (printed) {
            return printed.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("{")).toList();
        }
    }

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
