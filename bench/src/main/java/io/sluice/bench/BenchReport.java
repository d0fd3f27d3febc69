package io.sluice.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Prints a run's results as a table of ratios to their ceilings, and writes them as JSON. */
final class BenchReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;

    BenchReport(PrintStream out) {
        this.out = out;
    }

    void write(BenchResults results, Path file) throws IOException {
        printTable(results);
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), json(results));
        out.println();
        out.println("written to " + file);
    }

    private void printTable(BenchResults r) {
        PipelineResults p = r.pipeline();
        InsertCeilings inserts = r.insertCeilings();
        out.println();
        out.printf("%-34s %12s %12s %8s %9s %9s %9s%n", "run", "req/s", "ceiling", "ratio", "p50 ms", "p99 ms", "p99.9 ms");
        for (Map.Entry<Integer, Wrk.Result> run : p.gateway().entrySet()) {
            Wrk.Result g = run.getValue();
            Wrk.Result c = r.nettyCeiling().get(run.getKey());
            out.printf("%-34s %12.0f %12.0f %7.0f%% %9.2f %9.2f %9.2f%n", "gateway, " + run.getKey() + " connections",
                    g.requestsPerSecond(), c.requestsPerSecond(), 100 * g.requestsPerSecond() / c.requestsPerSecond(),
                    g.p50Millis(), g.p99Millis(), g.p999Millis());
        }
        Wrk.Result gzip = p.gzip();
        Wrk.Result c64 = r.nettyCeiling().get(64);
        out.printf("%-34s %12.0f %12.0f %7.0f%% %9.2f %9.2f %9.2f%n", "gateway, gzip body, 64 connections",
                gzip.requestsPerSecond(), c64.requestsPerSecond(), 100 * gzip.requestsPerSecond() / c64.requestsPerSecond(),
                gzip.p50Millis(), gzip.p99Millis(), gzip.p999Millis());
        Wrk.Result overload = p.overload();
        out.printf("%-34s %12.0f %12s %8s %9.2f %9.2f %9.2f  (non-2xx %d)%n",
                "gateway, 3x overload (" + PipelineRun.OVERLOAD_CONNECTIONS + " conn.)",
                overload.requestsPerSecond(), "", "", overload.p50Millis(), overload.p99Millis(), overload.p999Millis(), overload.non2xx());
        out.printf("%-34s %12.0f%n", "Kafka producer alone, records/s", r.producerCeiling());
        double rate = p.processorRate();
        out.printf("%-34s %12.0f %12.0f %7.0f%%   (%d records; ceiling: RowBinary insert)%n", "processor, records/s",
                rate, inserts.rowBinary(), 100 * rate / inserts.rowBinary(), p.published());
        out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: JSONEachRow insert, the sink's format)%n", "",
                rate, inserts.jsonEachRow(), 100 * rate / inserts.jsonEachRow());
        out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: Kafka Streams copying raw, exactly once)%n", "",
                rate, r.streamsCeiling(), 100 * rate / r.streamsCeiling());
        out.printf("%-34s %9d MB at full load, %d MB after 3x overload%n", "gateway peak RSS",
                p.gatewayPeakRssKb() / 1024, p.gatewayOverloadRssKb() / 1024);
        out.printf("%-34s %9d MB working off %d records at full speed, %d MB after the freshness runs%n", "processor peak RSS",
                p.processorBacklogRssKb() / 1024, p.published(), p.processorAfterFreshnessRssKb() / 1024);
        for (LoadedFreshness f : List.of(p.freshness(), p.lightFreshness())) {
            out.printf("%-34s p50 %.0f ms, p99 %.0f ms (%d markers, load %.0f req/s of a best %.0f)%n",
                    "freshness, 2xx to traffic_1m", f.freshness().p50Millis(), f.freshness().p99Millis(),
                    f.freshness().markers(), f.loadRequestsPerSecond(), p.freshnessBestRequestsPerSecond());
        }
    }

    /** The JSON file's fields, in the order earlier runs' files have them (docs/performance.md compares them). */
    private static Map<String, Object> json(BenchResults r) {
        PipelineResults p = r.pipeline();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("machine", r.machine());
        json.put("freshness_best_requests_per_s", p.freshnessBestRequestsPerSecond());
        json.put("processor_peak_rss_mb", Map.of("working_off_backlog", p.processorBacklogRssKb() / 1024,
                "after_freshness_runs", p.processorAfterFreshnessRssKb() / 1024));
        json.put("freshness_half_load", p.freshness());
        json.put("freshness_light_load", p.lightFreshness());
        List<Map<String, Object>> rows = new ArrayList<>();
        p.gateway().forEach((connections, g) -> rows.add(Map.of("connections", connections, "gateway", g,
                "ceiling", r.nettyCeiling().get(connections))));
        json.put("gateway", rows);
        json.put("gateway_gzip_64", p.gzip());
        json.put("gateway_overload_" + PipelineRun.OVERLOAD_CONNECTIONS, p.overload());
        json.put("kafka_producer_records_per_s", r.producerCeiling());
        json.put("processor", Map.of("records", p.published(), "records_per_s", p.processorRate(),
                "clickhouse_rowbinary_ceiling_rows_per_s", r.insertCeilings().rowBinary(),
                "clickhouse_jsoneachrow_ceiling_rows_per_s", r.insertCeilings().jsonEachRow(),
                "kafka_streams_copy_ceiling_records_per_s", r.streamsCeiling()));
        json.put("gateway_peak_rss_mb", Map.of("full_load", p.gatewayPeakRssKb() / 1024, "after_overload", p.gatewayOverloadRssKb() / 1024));
        return json;
    }
}
