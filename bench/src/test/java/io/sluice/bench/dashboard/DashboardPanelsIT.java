package io.sluice.bench.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Every ClickHouse panel of the shipped dashboard, expanded as Grafana sends it, runs against the
 * real tables over 1 hour, 24 hours and 30 days, for every route and for one; only the history panel
 * (and the operations row's freshness) reads the history, every other one an aggregate.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DashboardPanelsIT {
    private static final Path DASHBOARD = Path.of("..").resolve(DashboardPanels.SHIPPED);
    private static Engines engines;

    @BeforeAll
    static void schema(Engines realEngines) {
        engines = realEngines;
        ClickHouseSettings settings = new ClickHouseSettings(engines.clickHouseUrl(), engines.clickHouseUser(),
                engines.clickHousePassword(), "sluice", 90);
        try (var client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
        }
        ClickHouseQuery.run(engines, "INSERT INTO sluice.requests_1h (project, environment, hour, op, route, method, status_code, "
                + "requests, timed, duration_sum_ms, duration_buckets, version) VALUES ('shop', 'production', toStartOfHour(now()) - "
                + "INTERVAL 2 HOUR, 'http.server', 'GET /a''b', 'GET', 503, 200, 200, 2000, arrayResize([0], 40, 0), 1)");
    }

    @Test
    void everyPanelRunsOverAnHourADayAndThirtyDaysForEveryRouteAndForOne() {
        List<DashboardPanels.Panel> panels = DashboardPanels.clickHousePanels(DASHBOARD);
        assertEquals(14, panels.size());
        for (Duration range : List.of(Duration.ofHours(1), Duration.ofDays(1), Duration.ofDays(30))) {
            DashboardPanels.View view = DashboardPanels.View.last(range, "shop");
            for (DashboardPanels.Panel panel : panels) {
                for (DashboardPanels.View shown : List.of(view, view.withRoute("GET /a'b").withStatus("503"))) {
                    ClickHouseQuery.run(engines, DashboardPanels.expand(panel.sql(), shown)); // throws with ClickHouse's message
                }
            }
        }
    }

    @Test
    void aRouteWithAQuoteIsOneValueNotSql() {
        DashboardPanels.Panel topRoutes = DashboardPanels.clickHousePanels(DASHBOARD).stream()
                .filter(panel -> panel.title().equals("Route drill-down: ${route}")).findFirst().orElseThrow();
        String answer = ClickHouseQuery.run(engines, "SELECT sum(requests) FROM (" + DashboardPanels.expand(topRoutes.sql(),
                DashboardPanels.View.last(Duration.ofDays(1), "shop").withRoute("GET /a'b")) + ")");
        assertEquals("200", answer);
    }

    /**
     * Beyond 6 hours the platform panels read traffic_1h under FINAL: one row per project, environment and hour,
     * the newest version of each (a project of its own, busier than any other the shared database may hold).
     */
    @Test
    void thePlatformPanelsOverADayOrMoreCountTheNewestHourRowsOfTraffic1h() {
        String project = "platform-panels-" + System.nanoTime();
        // One INSERT each: ClickHouse would replace the older version within one inserted block already.
        for (String row : List.of("'production', toStartOfHour(now()) - INTERVAL 3 HOUR, 1000000000000, 1000000000000, 0, 1",
                "'production', toStartOfHour(now()) - INTERVAL 3 HOUR, 2000000000000, 1000000000000, 1000000000000, 2",
                "'staging', toStartOfHour(now()) - INTERVAL 4 HOUR, 2000000000000, 2000000000000, 0, 1")) {
            ClickHouseQuery.run(engines, "INSERT INTO sluice.traffic_1h (project, environment, hour, requests, status_2xx, status_5xx, version) "
                    + "VALUES ('" + project + "', " + row + ")");
        }
        List<DashboardPanels.Panel> platform = DashboardPanels.clickHousePanels(DASHBOARD).stream()
                .filter(panel -> panel.title().startsWith("Platform:")).toList();
        assertEquals(2, platform.size());
        for (Duration range : List.of(Duration.ofDays(1), Duration.ofDays(30))) {
            for (DashboardPanels.Panel panel : platform) {
                String rows = ClickHouseQuery.run(engines, DashboardPanels.expand(panel.sql(), DashboardPanels.View.last(range, "shop")));
                // By volume, the estimate beside the requests: the rows' own count, as nothing was sampled.
                String expected = panel.title().endsWith("by volume") ? project + "\t4000000000000\t4000000000000\t1000000000000\t25"
                        : project + "\t4000000000000\t1000000000000\t25";
                assertTrue(rows.lines().toList().contains(expected), panel.title() + " over " + range + ":\n" + rows);
            }
        }
    }

    @Test
    void onlyTheHistoryAndFreshnessPanelsReadTheHistory() {
        for (DashboardPanels.Panel panel : DashboardPanels.clickHousePanels(DASHBOARD)) {
            boolean allowed = panel.title().startsWith("Request history") || panel.title().startsWith("Freshness");
            if (!allowed) {
                assertFalse(panel.readsHistory(), panel.title() + " reads the history");
            }
        }
        assertTrue(DashboardPanels.clickHousePanels(DASHBOARD).stream().filter(DashboardPanels.Panel::readsHistory).count() == 2);
    }

    @Test
    void theVariablesQueriesRun() {
        for (String sql : DashboardPanels.variableQueries(DASHBOARD)) {
            ClickHouseQuery.run(engines, sql.replace("${project}", "shop"));
        }
    }
}
