package io.sluice.stack;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

import com.clickhouse.client.api.Client;

import io.sluice.bench.dashboard.DemoWorkload;
import io.sluice.cli.DemoData;
import io.sluice.cli.StatsReport;

/** The dashboard stage's workload: cli's demo data and {@code stats}' queries. */
final class CliDemoWorkload implements DemoWorkload {
    @Override
    public String hugeProject() {
        return DemoData.HUGE_PROJECT;
    }

    @Override
    public void fill(Client client, String database, double scale, PrintStream out) {
        new DemoData(client, database, out).fill(scale);
    }

    @Override
    public Map<String, String> statsQueries(String database, Duration range) {
        return StatsReport.queries(database, range);
    }
}
