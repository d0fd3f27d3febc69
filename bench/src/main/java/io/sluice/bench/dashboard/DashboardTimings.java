package io.sluice.bench.dashboard;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;

/**
 * The bench's dashboard stage: times every ClickHouse panel of the shipped dashboard over the last
 * 24 hours and 30 days for one project (the demo data's huge tenant) and {@code ./sluice stats}'
 * queries, {@link #RUNS} runs each, and reports medians against the {@link #TARGET_MS} target and the
 * storage per million requests.
 */
public final class DashboardTimings {
    public static final int RUNS = 5;
    public static final double TARGET_MS = 300;
    public static final List<Duration> RANGES = List.of(Duration.ofDays(1), Duration.ofDays(30));

    private final Client clickHouse;
    private final String db;
    private final PrintStream out;

    public DashboardTimings(Client clickHouse, String database, PrintStream out) {
        this.clickHouse = clickHouse;
        this.db = database;
        this.out = out;
    }

    /** One query's median over {@link #RUNS} runs, per range (the same order as {@link #RANGES}). */
    public record Timing(String name, List<Double> medianMs) {
        public boolean meetsTarget() {
            return medianMs.stream().allMatch(ms -> ms <= TARGET_MS);
        }
    }

    /** What one scale measured. */
    public record Result(String scale, List<Timing> timings, long requests, long bytesOnDisk, Map<String, Long> bytesPerTable) {
        public double megabytesPerMillionRequests() {
            return requests == 0 ? 0 : bytesOnDisk / 1e6 / (requests / 1e6);
        }
    }

    /**
     * @param statsQueries per range, {@code ./sluice stats}' queries by name (parameters project and since)
     */
    public Result measure(String scale, String project, List<DashboardPanels.Panel> panels,
                          Map<Duration, Map<String, String>> statsQueries) {
        List<Timing> timings = new ArrayList<>();
        for (DashboardPanels.Panel panel : panels) {
            List<Double> medians = new ArrayList<>();
            for (Duration range : RANGES) {
                String sql = DashboardPanels.expand(panel.sql(), DashboardPanels.View.last(range, project)).replace("sluice.", db + ".");
                medians.add(median(sql, Map.of()));
            }
            timings.add(new Timing(panel.title(), medians));
            out.printf("  %-60s %8.0f ms %8.0f ms%n", panel.title(), medians.get(0), medians.get(1));
        }
        for (String name : statsQueries.get(RANGES.get(0)).keySet()) {
            List<Double> medians = new ArrayList<>();
            for (Duration range : RANGES) {
                long since = System.currentTimeMillis() / 1000 - range.toSeconds();
                medians.add(median(statsQueries.get(range).get(name), Map.of("project", project, "since", since)));
            }
            timings.add(new Timing("stats: " + name, medians));
            out.printf("  %-60s %8.0f ms %8.0f ms%n", "stats: " + name, medians.get(0), medians.get(1));
        }
        Map<String, Long> perTable = new LinkedHashMap<>();
        for (GenericRecord row : clickHouse.queryAll("SELECT table, sum(bytes_on_disk) AS b FROM system.parts WHERE database = {db:String} "
                + "AND active GROUP BY table ORDER BY b DESC", Map.of("db", db))) {
            perTable.put(row.getString("table"), row.getLong("b"));
        }
        long requests = clickHouse.queryAll("SELECT count() AS n FROM " + db + ".transactions").get(0).getLong("n");
        return new Result(scale, timings, requests, perTable.values().stream().mapToLong(Long::longValue).sum(), perTable);
    }

    /** The median wall-clock time of {@link #RUNS} runs, in milliseconds, answer read in full. */
    private double median(String sql, Map<String, Object> parameters) {
        double[] ms = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long started = System.nanoTime();
            clickHouse.queryAll(sql, parameters);
            ms[i] = (System.nanoTime() - started) / 1e6;
        }
        Arrays.sort(ms);
        return ms[RUNS / 2];
    }

    /** The table of a run: medians per range, the target, storage. */
    public static void report(List<Result> results, PrintStream out) {
        for (Result result : results) {
            out.printf("%nScale %s: %,d requests in the history, %.1f MB on disk per million requests (all tables)%n",
                    result.scale(), result.requests(), result.megabytesPerMillionRequests());
            result.bytesPerTable().forEach((table, bytes) -> out.printf("  %-16s %10.1f MB%n", table, bytes / 1e6));
            out.printf("  %-60s %11s %11s  target %.0f ms%n", "median of " + RUNS, "24 h", "30 days", TARGET_MS);
            for (Timing timing : result.timings()) {
                out.printf("  %-60s %8.0f ms %8.0f ms  %s%n", timing.name(), timing.medianMs().get(0), timing.medianMs().get(1),
                        timing.meetsTarget() ? "met" : "MISSED");
            }
        }
    }
}
