package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Settings;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

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
        settings = new Settings(Map.of("SLUICE_CLICKHOUSE_URL", engines.clickHouseUrl(), "SLUICE_CLICKHOUSE_USER", engines.clickHouseUser(),
                "SLUICE_CLICKHOUSE_PASSWORD", engines.clickHousePassword(), "SLUICE_CLICKHOUSE_DATABASE", DB));
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

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
