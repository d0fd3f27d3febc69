package io.sluice.bench.dashboard;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;

import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Directories;
import io.sluice.engines.Ports;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;

/**
 * {@code ./sluice bench --dashboards}: for each scale, the demo data into a database of its own,
 * then {@link DashboardTimings} (every panel of the shipped dashboard and {@code stats}' queries, 24 h
 * and 30 days, the huge tenant, 5 runs each) and the storage per million requests.
 */
public final class DashboardBench {
    private final PrintStream out;
    private final DemoWorkload demo;

    public DashboardBench(PrintStream out, DemoWorkload demo) {
        this.out = out;
        this.demo = demo;
    }

    /**
     * @param clickHouseUrl a running ClickHouse to use, or null to start one in a temporary directory
     * @param reuse         keep a scale's database when it already holds demo data (to time again without refilling)
     */
    public void run(List<Double> scales, String clickHouseUrl, boolean reuse) throws Exception {
        Path work = null;
        ClickHouseServer server = null;
        try {
            String url = clickHouseUrl;
            if (url == null) {
                work = Files.createTempDirectory("sluice-dashboards-");
                List<Integer> ports = Ports.free(2);
                out.println("· starting ClickHouse in " + work);
                server = ClickHouseServer.start(ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir()),
                        work.resolve("clickhouse"), ports.get(0), ports.get(1), work.resolve("clickhouse.log"));
                url = server.httpUrl();
            }
            List<DashboardTimings.Result> results = new ArrayList<>();
            List<DashboardPanels.Panel> panels = DashboardPanels.clickHousePanels(DashboardPanels.shippedFromWorkingDirectory());
            for (double scale : scales) {
                String label = scale == Math.rint(scale) ? Long.toString((long) scale) : Double.toString(scale);
                ClickHouseSettings settings = new ClickHouseSettings(url, "default", "", "bench_scale" + label.replace('.', '_'), 90);
                try (Client client = ClickHouseClients.create(settings)) {
                    SchemaMigrations.apply(client, settings);
                    boolean filled = client.queryAll("SELECT count() AS n FROM " + settings.database() + ".requests_1h WHERE project = {p:String}",
                            Map.of("p", demo.hugeProject())).get(0).getLong("n") > 0;
                    if (!(reuse && filled)) {
                        out.println("· demo-data --scale " + label + " into " + settings.database());
                        demo.fill(client, settings.database(), scale, out);
                    }
                    out.println("· timing the dashboard's panels and stats' queries at scale " + label + " (24 h, 30 days; median of "
                            + DashboardTimings.RUNS + ")");
                    Map<Duration, Map<String, String>> stats = new LinkedHashMap<>();
                    for (Duration range : DashboardTimings.RANGES) {
                        stats.put(range, demo.statsQueries(settings.database(), range));
                    }
                    results.add(new DashboardTimings(client, settings.database(), out).measure(label, demo.hugeProject(), panels, stats));
                }
            }
            DashboardTimings.report(results, out);
        } finally {
            if (server != null) {
                server.close();
            }
            if (work != null) {
                Directories.deleteRecursively(work);
            }
        }
    }
}
