package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.events.DurationBuckets;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * {@code ./sluice demo-data --scale 0.001 --json}, run once on the real ClickHouse: every aggregate
 * equals what the history it summarises holds, per project (and per series where the table has one).
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DemoDataIT {
    private static final String DB = "sluice_demodata";
    private static Engines engines;
    private static CliRunner.Result run;

    @BeforeAll
    static void fill(Engines realEngines) {
        engines = realEngines;
        run = CliRunner.run(TestSettings.on(engines).with("SLUICE_CLICKHOUSE_DATABASE", DB).build(),
                "demo-data", "--scale", "0.001", "--json");
    }

    @Test
    void theLastLineIsAJsonObjectNamingAHugeAndASmallProjectThatHoldTraffic() throws Exception {
        assertEquals(0, run.exitCode(), run.err());
        String[] lines = run.out().strip().split("\n");
        JsonNode summary = new ObjectMapper().readTree(lines[lines.length - 1]);
        assertEquals("50000\t1", query("SELECT count(), max(timestamp) - min(timestamp) < 86400 FROM " + DB
                + ".transactions FINAL WHERE project = '" + summary.get("huge_project").asText() + "'"));
        assertEquals("1", query("SELECT count() > 0 FROM " + DB + ".transactions WHERE project = '"
                + summary.get("small_project").asText() + "' AND timestamp < now() - INTERVAL 20 DAY"));
        assertEquals(70_000, summary.get("transactions").asLong());
    }

    @Test
    void requestsPerMinuteCountEveryHistoryRowOfEachSeries() {
        assertEquals("0", query("SELECT count() FROM (SELECT project, environment, toStartOfMinute(timestamp) AS minute, op, route, "
                + "method, ifNull(status_code, 0) AS status_code, count() AS n FROM " + DB + ".transactions FINAL GROUP BY ALL) AS h "
                + "FULL OUTER JOIN (SELECT project, environment, minute, op, route, method, status_code, requests FROM " + DB
                + ".requests_1m FINAL) AS a USING (project, environment, minute, op, route, method, status_code) "
                + "WHERE h.n != a.requests"));
        assertEquals(query("SELECT count() FROM " + DB + ".transactions FINAL"), query("SELECT sum(requests) FROM " + DB + ".requests_1m FINAL"));
    }

    @Test
    void durationHistogramsHoldEveryTimedRequestAndTheirSum() {
        assertEquals(query("SELECT project, count(duration_ms), round(sum(duration_ms), 1) FROM " + DB
                        + ".transactions FINAL GROUP BY project ORDER BY project"),
                query("SELECT project, sum(timed), round(sum(duration_sum_ms), 1) FROM " + DB + ".requests_1m FINAL "
                        + "GROUP BY project ORDER BY project"));
        assertEquals("0", query("SELECT countIf(arraySum(duration_buckets) != timed OR length(duration_buckets) != 40) FROM "
                + DB + ".requests_1m FINAL"));
    }

    @Test
    void aDurationIsCountedInTheBucketDurationBucketsPutsItIn() {
        String pairs = query("SELECT t.duration_ms, indexOf(a.duration_buckets, 1) - 1 FROM " + DB + ".transactions AS t FINAL "
                + "JOIN (SELECT * FROM " + DB + ".requests_1m FINAL WHERE requests = 1 AND timed = 1) AS a "
                + "ON t.project = a.project AND t.environment = a.environment AND toStartOfMinute(t.timestamp) = a.minute "
                + "AND t.op = a.op AND t.route = a.route AND t.method = a.method AND ifNull(t.status_code, 0) = a.status_code "
                + "ORDER BY t.duration_ms LIMIT 2000");
        String[] lines = pairs.split("\n");
        assertEquals(2000, lines.length);
        for (String line : lines) {
            String[] pair = line.split("\t");
            assertEquals(DurationBuckets.of(Double.parseDouble(pair[0])), Integer.parseInt(pair[1]), line);
        }
    }

    @Test
    void requestsPerHourAreTheSumOfTheirMinutes() {
        assertEquals(query("SELECT project, environment, toStartOfHour(minute) AS hour, op, route, method, status_code, sum(requests), "
                        + "sumForEach(duration_buckets) FROM " + DB + ".requests_1m FINAL GROUP BY ALL ORDER BY ALL"),
                query("SELECT project, environment, hour, op, route, method, status_code, requests, duration_buckets FROM " + DB
                        + ".requests_1h FINAL ORDER BY ALL"));
    }

    @Test
    void trafficPerMinuteCountsTheHandledRequestsByStatusClass() {
        assertEquals(query("SELECT project, environment, toStartOfMinute(timestamp) AS minute, count(), "
                        + "countIf(intDiv(status_code, 100) = 2), countIf(intDiv(status_code, 100) = 4), countIf(intDiv(status_code, 100) = 5) "
                        + "FROM " + DB + ".transactions FINAL WHERE op = 'http.server' GROUP BY ALL ORDER BY ALL"),
                query("SELECT project, environment, minute, requests, status_2xx, status_4xx, status_5xx FROM " + DB
                        + ".traffic_1m FINAL ORDER BY ALL"));
    }

    @Test
    void trafficPerHourIsTheSumOfItsMinutes() {
        assertEquals(query("SELECT project, environment, toStartOfHour(minute) AS hour, sum(requests), sum(status_1xx), sum(status_2xx), "
                        + "sum(status_3xx), sum(status_4xx), sum(status_5xx), sum(status_none) FROM " + DB + ".traffic_1m FINAL "
                        + "GROUP BY ALL ORDER BY ALL"),
                query("SELECT project, environment, hour, requests, status_1xx, status_2xx, status_3xx, status_4xx, status_5xx, "
                        + "status_none FROM " + DB + ".traffic_1h FINAL ORDER BY ALL"));
    }

    @Test
    void errorsPerMinuteAndPerHourCountEveryErrorReport() {
        assertEquals(query("SELECT project, environment, toStartOfMinute(timestamp) AS minute, exception_type, count() FROM " + DB
                        + ".errors FINAL GROUP BY ALL ORDER BY ALL"),
                query("SELECT project, environment, minute, exception_type, errors FROM " + DB + ".errors_1m FINAL ORDER BY ALL"));
        assertEquals(query("SELECT project, environment, toStartOfHour(timestamp) AS hour, route, exception_type, count() FROM " + DB
                        + ".errors FINAL GROUP BY ALL ORDER BY ALL"),
                query("SELECT project, environment, hour, route, exception_type, errors FROM " + DB + ".errors_1h FINAL ORDER BY ALL"));
        assertEquals("900", query("SELECT count() FROM " + DB + ".errors FINAL"), "1% of the huge tenant's 50,000 requests, 2% of the small ones' 20,000");
    }

    @Test
    void acceptedOutcomesCountEveryStoredEventAndRefusalsAreThere() {
        assertEquals(query("SELECT project, sum(n) FROM (SELECT project, count() AS n FROM " + DB + ".transactions FINAL GROUP BY project "
                        + "UNION ALL SELECT project, count() AS n FROM " + DB + ".errors FINAL GROUP BY project) GROUP BY project ORDER BY project"),
                query("SELECT project, sum(events) FROM " + DB + ".outcomes_1m FINAL WHERE outcome = 'accepted' GROUP BY project "
                        + "ORDER BY project"));
        assertEquals("1\t1", query("SELECT countIf(outcome = 'quota_exceeded') > 0, countIf(outcome = 'unauthorized') > 0 FROM "
                + DB + ".outcomes_1m FINAL"));
    }

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
