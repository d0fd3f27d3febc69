package io.sluice.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.bench.ceiling.InsertCeilings;
import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.CpuWindow;
import io.sluice.bench.process.MemoryBudget;
import io.sluice.bench.run.Freshness;
import io.sluice.bench.run.IdleLatency;
import io.sluice.bench.run.LoadedFreshness;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.PipelineRun;
import io.sluice.bench.run.ProducerExperiments;
import io.sluice.bench.run.ResultFiles;
import io.sluice.bench.run.SinkThroughput;
import io.sluice.bench.run.SustainedRate;
import io.sluice.bench.scenario.HugeTenant;

/** Prints a run's results as a table of ratios to their ceilings, and writes them as JSON and as a chart (SVG). */
public final class BenchReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;

    public BenchReport(PrintStream out) {
        this.out = out;
    }

    public void write(BenchResults results, ResultFiles files) throws IOException {
        write(results, files.json(), files.svg());
    }

    /** Writes what was measured: a run that failed in a stage leaves out that stage's rows and fields, and those after it. */
    public void write(BenchResults results, Path file, Path chart) throws IOException {
        printTable(results);
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), json(results));
        out.println();
        if (results.pipeline() != null) {
            Files.writeString(chart, BenchChart.svg(results), StandardCharsets.UTF_8);
            out.println("chart: " + chart);
        }
        out.println("written to " + file);
    }

    private void printTable(BenchResults r) {
        PipelineResults p = r.pipeline();
        InsertCeilings inserts = r.insertCeilings();
        out.println();
        CostReport.print(r, out);
        out.printf("%-34s %12s %12s %8s %9s %9s %9s%n", "run", "req/s", "ceiling", "ratio", "p50 ms", "p99 ms", "p99.9 ms");
        if (p != null) {
            printGateway(r);
            if (p.idleLatency() != null) {
                IdleLatency.lines(p.idleLatency()).forEach(out::println);
            }
        }
        if (r.producerCeiling() != null) {
            out.printf("%-34s %12.0f%n", "Kafka producer alone, records/s", r.producerCeiling());
        }
        if (p != null) {
            double rate = p.processorRate();
            if (inserts != null) {
                out.printf("%-34s %12.0f %12.0f %7.0f%%   (%d records, warm; ceiling: RowBinary insert)%n", "processor, records/s",
                        rate, inserts.rowBinary(), 100 * rate / inserts.rowBinary(), p.backlog().records());
                out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: JSONEachRow insert, the sink's format)%n", "",
                        rate, inserts.jsonEachRow(), 100 * rate / inserts.jsonEachRow());
            } else {
                out.printf("%-34s %12.0f   (%d records, warm)%n", "processor, records/s", rate, p.backlog().records());
            }
            if (r.streamsCeiling() != null) {
                out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: Kafka Streams copying raw, exactly once)%n", "",
                        rate, r.streamsCeiling(), 100 * rate / r.streamsCeiling());
            }
            if (r.streamsShapeCeiling() != null) {
                out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: Kafka Streams in the processor's shape, no parsing)%n", "",
                        rate, r.streamsShapeCeiling(), 100 * rate / r.streamsShapeCeiling());
            }
        }
        if (r.streamsShapeCeiling() != null) {
            out.printf("%-34s %12.0f %12.0f %7.0f%%   (the shape's own cost: shape vs copy)%n", "Kafka Streams, processor's shape",
                    r.streamsShapeCeiling(), r.streamsCeiling(), 100 * r.streamsShapeCeiling() / r.streamsCeiling());
        }
        if (r.processorAlone() != null) {
            out.printf("%-34s %12.0f %12.0f %7.0f%%   (its topology alone, no sink, vs the copy: like for like)%n",
                    "processor's Streams application", r.processorAlone(), r.streamsCeiling(), 100 * r.processorAlone() / r.streamsCeiling());
        }
        if (r.processorAloneWithoutPerRoute() != null) {
            out.printf("%-34s %12.0f %12.0f %7.0f%%   (with the per-route aggregates vs without them, same records)%n",
                    "", r.processorAlone(), r.processorAloneWithoutPerRoute(), 100 * r.processorAlone() / r.processorAloneWithoutPerRoute());
        }
        if (r.tenants() != null) {
            HugeTenant.print(r.tenants(), r.partitions(), out);
        }
        SinkThroughput sink = r.sink();
        if (sink != null) {
            out.printf("%-34s %12.0f %12.0f %7.0f%%   (%d rows; ceiling: JSONEachRow insert of the same rows)%n", "sink alone, rows/s",
                    sink.sink(), sink.jsonEachRow(), 100 * sink.ratioToJsonEachRow(), sink.rows());
            out.printf("%-34s %12.0f %12.0f %7.0f%%   (JSON converted to RowBinary vs JSONEachRow, sink's batch size)%n", "",
                    sink.convertedAtSinkBatch(), sink.jsonAtSinkBatch(), 100 * sink.convertedAtSinkBatch() / sink.jsonAtSinkBatch());
        }
        if (p != null) {
            printMemoryAndFreshness(p);
            printPipeline(p);
        }
        printExperiments(r);
        Baseline release = Baseline.lastRelease();
        ReleaseReport.print(release, release.compare(BenchFigures.of(r)), out);
        if (r.failure() != null) {
            out.println();
            out.printf("STOPPED at \"%s\": %s; not measured: that stage and those after it%n", r.failure().stage(), r.failure().error());
        }
    }

    /** Each gateway run against the bare Netty server at the same connections, then the gzip and overload runs. */
    private void printGateway(BenchResults r) {
        PipelineResults p = r.pipeline();
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
    }

    private void printMemoryAndFreshness(PipelineResults p) {
        out.printf("%-34s %9d MB at full load, %d MB after 3x overload%n", "gateway peak RSS",
                p.gatewayPeakRssKb() / 1024, p.gatewayOverloadRssKb() / 1024);
        out.printf("%-34s %9d MB working off %d records at full speed, %d MB after the freshness runs%n", "processor peak RSS",
                p.processorBacklogRssKb() / 1024, p.backlog().records(), p.processorAfterFreshnessRssKb() / 1024);
        for (LoadedFreshness f : List.of(p.freshness(), p.lightFreshness())) {
            out.printf("%-34s p50 %.0f ms, p99 %.0f ms (%d markers, load %.0f req/s of a best %.0f)%n",
                    "freshness, 2xx to traffic_1m", f.freshness().p50Millis(), f.freshness().p99Millis(),
                    f.freshness().markers(), f.loadRequestsPerSecond(), p.freshnessBestRequestsPerSecond());
            printCounted(f.freshness());
        }
    }

    /** Where a freshness went: the processor's part (2xx to the count committed in Kafka), the sink's the rest. */
    private void printCounted(Freshness.Result f) {
        out.printf("%-34s p50 %.0f ms, p99 %.0f ms to the count committed in the traffic topic (the processor's part; %d markers)%n",
                "", f.countedP50Millis(), f.countedP99Millis(), f.countedMarkers());
    }

    /** The headline: what gateway and processor sustain together, freshness at half of it, per core, memory. */
    private void printPipeline(PipelineResults p) {
        SustainedRate.Result sustained = p.sustained();
        SustainedRate.Step best = sustained.best();
        out.println();
        out.printf("%-34s %9.0f events/s  (processor lag flat within %.0f s of the rate over %d steps)%s%n",
                "SUSTAINED RATE, gateway+processor", sustained.eventsPerSecond(), SustainedRate.TOLERANCE_SECONDS,
                sustained.steps().size(), sustained.atUpperBound()
                        ? String.format(" - every step kept up: at least this, the search stopped at %.0f", sustained.upperPerSecond())
                        : "");
        PipelineResults.WithoutRoutes without = p.withoutRoutes();
        if (without != null) {
            double sustainedShare = sustained.eventsPerSecond() / without.sustained().eventsPerSecond();
            out.printf("%-34s %9.0f events/s  without the per-route aggregates: with them %.0f%% of it (target >= 85%%: %s)%s%n",
                    "", without.sustained().eventsPerSecond(), 100 * sustainedShare, sustainedShare >= 0.85 ? "met" : "not met",
                    without.sustained().atUpperBound() ? " - every step kept up, the search stopped at its bound" : "");
            out.printf("%-34s %9.0f records/s working off the backlog through ClickHouse, %.0f without them: %.0f%%%n",
                    "processor, per-route aggregates", p.processorRate(), without.processorRate(),
                    100 * p.processorRate() / without.processorRate());
        }
        LoadedFreshness f = p.sustainedFreshness();
        out.printf("%-34s p50 %.0f ms, p99 %.0f ms (%d markers, load %.0f req/s; target p99 <= 2000 ms: %s)%n",
                "freshness at half the sustained", f.freshness().p50Millis(), f.freshness().p99Millis(),
                f.freshness().markers(), f.loadRequestsPerSecond(), f.freshness().p99Millis() <= 2000 ? "met" : "not met");
        printCounted(f.freshness());
        int top = PipelineRun.CONNECTIONS.get(PipelineRun.CONNECTIONS.size() - 1);
        Double topCores = p.gatewayCores().get(top);
        if (topCores != null) {
            out.printf("%-34s %9.0f events/s per core (%.0f req/s on %.2f cores, %d connections, gateway alone)%n",
                    "gateway per core", CpuWindow.perCore(p.gateway().get(top).requestsPerSecond(), topCores),
                    p.gateway().get(top).requestsPerSecond(), topCores, top);
        }
        out.printf("%-34s %9.0f events/s per core (%.0f records/s on %.2f cores, working off the backlog)%n",
                "processor per core", CpuWindow.perCore(p.processorRate(), p.processorBacklogCores()), p.processorRate(),
                p.processorBacklogCores());
        if (best != null) {
            out.printf("%-34s gateway %.2f cores (%.0f events/s per core), processor %.2f cores (%.0f events/s per core)%n",
                    "at the sustained rate", best.gatewayCores(), CpuWindow.perCore(best.achievedPerSecond(), best.gatewayCores()),
                    best.processorCores(), CpuWindow.perCore(best.achievedPerSecond(), best.processorCores()));
        }
        MemoryBudget budget = p.processorBudget();
        out.printf("%-34s %9d MB peak working off the backlog, budget %d MB (heap %d + RocksDB %d + %d other): %s%n",
                "processor RSS against its budget", p.processorBacklogRssKb() / 1024, budget.totalMb(), budget.heapMb(),
                budget.rocksDbMb(), budget.overheadMb(), p.processorBacklogRssKb() / 1024 <= budget.totalMb() ? "within" : "OVER");
    }

    private void printExperiments(BenchResults r) {
        if (r.producerExperiments() == null || r.producerExperiments().isEmpty()) {
            return;
        }
        out.println();
        out.printf("%-34s %5s %12s %8s %9s %9s%n", "producer experiment", "conn.", "req/s", "ratio", "p50 ms", "p99 ms");
        for (ProducerExperiments.Variant variant : r.producerExperiments()) {
            variant.runs().forEach((connections, g) -> out.printf("%-34s %5d %12.0f %7.0f%% %9.2f %9.2f%n", variant.name(),
                    connections, g.requestsPerSecond(), 100 * g.requestsPerSecond() / r.nettyCeiling().get(connections).requestsPerSecond(),
                    g.p50Millis(), g.p99Millis()));
        }
        out.printf("%-34s %12s %12s %9s %9s %13s %13s %11s%n", "producer experiment, fixed rate", "target/s", "req/s", "p50 ms",
                "p99 ms", "gateway cores", "broker cores", "idle p50 ms");
        for (ProducerExperiments.Variant variant : r.producerExperiments()) {
            ProducerExperiments.Paced paced = variant.paced();
            out.printf("%-34s %12.0f %12.0f %9.2f %9.2f %13.2f %13.2f %11.2f%n", variant.name(), paced.targetPerSecond(),
                    paced.load().requestsPerSecond(), paced.load().p50Millis(), paced.load().p99Millis(), paced.gatewayCores(),
                    paced.brokerCores(), variant.idle().p50Millis());
        }
    }

    /**
     * The JSON file's fields, in the order earlier runs' files have them (docs/notebook/performance-rounds.md compares them);
     * a figure not measured is left out, and {@code failed_stage} names the stage that stopped the run.
     */
    private static Map<String, Object> json(BenchResults r) {
        PipelineResults p = r.pipeline();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("machine", r.machine());
        json.put("cpu_per_event", CostReport.json(p));
        json.put("idle_stack", CostReport.idleJson(p));
        if (p != null) {
            pipeline(r, json);
        }
        json.put("producer_experiments", experiments(r));
        json.put("sink", r.sink());
        json.put("kafka_streams_processor_shape_ceiling_records_per_s", r.streamsShapeCeiling());
        json.put("processor_streams_alone_records_per_s", r.processorAlone());
        json.put("processor_streams_alone_without_per_route_records_per_s", r.processorAloneWithoutPerRoute());
        json.put("processor_tenants", r.tenants());
        if (p != null && p.withoutRoutes() != null) {
            json.put("without_per_route_aggregates", Map.of("processor_records_per_s", p.withoutRoutes().processorRate(),
                    "sustained", sustained(p.withoutRoutes().sustained())));
        }
        Baseline release = Baseline.lastRelease();
        json.put("against_release", ReleaseReport.json(release, release.compare(BenchFigures.of(r))));
        json.put("failed_stage", r.failure());
        json.values().removeIf(java.util.Objects::isNull);
        return json;
    }

    /** The gateway's and the processor's fields, with the ceilings each is compared to, in their order. */
    private static void pipeline(BenchResults r, Map<String, Object> json) {
        PipelineResults p = r.pipeline();
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
        Map<String, Object> processor = new LinkedHashMap<>();
        processor.put("records", p.backlog().records());
        processor.put("records_per_s", p.processorRate());
        if (r.insertCeilings() != null) {
            processor.put("clickhouse_rowbinary_ceiling_rows_per_s", r.insertCeilings().rowBinary());
            processor.put("clickhouse_jsoneachrow_ceiling_rows_per_s", r.insertCeilings().jsonEachRow());
        }
        processor.put("kafka_streams_copy_ceiling_records_per_s", r.streamsCeiling());
        processor.put("kafka_streams_copy_ceiling_cpu_us_per_record", r.streamsCopyMicrosPerRecord());
        processor.put("warmed_on_records", p.backlog().recordsBefore());
        processor.values().removeIf(java.util.Objects::isNull);
        json.put("processor", processor);
        json.put("gateway_peak_rss_mb", Map.of("full_load", p.gatewayPeakRssKb() / 1024, "after_overload", p.gatewayOverloadRssKb() / 1024));
        // Added with the sustained rate (#18); the fields above keep their names and order.
        json.put("sustained", sustained(p.sustained()));
        json.put("freshness_half_sustained", p.sustainedFreshness());
        json.put("per_core", perCore(p));
        MemoryBudget budget = p.processorBudget();
        json.put("processor_rss_budget_mb", Map.of("heap", budget.heapMb(), "rocksdb", budget.rocksDbMb(),
                "other", budget.overheadMb(), "total", budget.totalMb()));
        if (p.idleLatency() != null) {
            Map<String, Object> idle = new LinkedHashMap<>();
            idle.put("target_p50_ms", IdleLatency.TARGET_P50_MILLIS);
            idle.put("warm_seconds", p.idleLatency().warmSeconds());
            idle.put("v1_keep_alive", p.idleLatency().v1KeepAlive());
            idle.put("envelope_new_connections", p.idleLatency().envelopeNewConnections());
            json.put("idle_latency", idle);
        }
    }

    private static List<Map<String, Object>> experiments(BenchResults r) {
        if (r.producerExperiments() == null) {
            return null;
        }
        List<Map<String, Object>> experiments = new ArrayList<>();
        for (ProducerExperiments.Variant variant : r.producerExperiments()) {
            List<Map<String, Object>> runs = new ArrayList<>();
            variant.runs().forEach((connections, g) -> runs.add(Map.of("connections", connections, "gateway", g,
                    "ceiling_ratio", g.requestsPerSecond() / r.nettyCeiling().get(connections).requestsPerSecond())));
            experiments.add(Map.of("name", variant.name(), "settings", variant.settings(), "runs", runs, "paced", variant.paced(),
                    "idle_v1_keep_alive", variant.idle()));
        }
        return experiments;
    }

    private static Map<String, Object> sustained(SustainedRate.Result sustained) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("events_per_s", sustained.eventsPerSecond());
        json.put("search_upper_bound_per_s", sustained.upperPerSecond());
        json.put("every_step_kept_up", sustained.atUpperBound());
        json.put("tolerance_seconds_of_rate", SustainedRate.TOLERANCE_SECONDS);
        json.put("delivered_share_required", SustainedRate.DELIVERED);
        json.put("connections", SustainedRate.CONNECTIONS);
        List<Map<String, Object>> steps = new ArrayList<>();
        for (SustainedRate.Step step : sustained.steps()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("target_per_s", step.targetPerSecond());
            s.put("achieved_per_s", step.achievedPerSecond());
            s.put("lag_growth_records", step.lagGrowth());
            s.put("tolerance_records", step.toleranceRecords());
            s.put("flat", step.flat());
            s.put("gateway_cores", step.gatewayCores());
            s.put("processor_cores", step.processorCores());
            s.put("load", step.load());
            steps.add(s);
        }
        json.put("steps", steps);
        return json;
    }

    private static Map<String, Object> perCore(PipelineResults p) {
        Map<String, Object> json = new LinkedHashMap<>();
        List<Map<String, Object>> gateway = new ArrayList<>();
        p.gatewayCores().forEach((connections, cores) -> gateway.add(Map.of("connections", connections, "cores", cores,
                "events_per_s_per_core", CpuWindow.perCore(p.gateway().get(connections).requestsPerSecond(), cores))));
        json.put("gateway_alone", gateway);
        json.put("processor_backlog", Map.of("cores", p.processorBacklogCores(),
                "records_per_s_per_core", CpuWindow.perCore(p.processorRate(), p.processorBacklogCores())));
        SustainedRate.Step best = p.sustained().best();
        if (best != null) {
            json.put("at_sustained_rate", Map.of("events_per_s", best.achievedPerSecond(),
                    "gateway_cores", best.gatewayCores(), "processor_cores", best.processorCores(),
                    "gateway_events_per_s_per_core", CpuWindow.perCore(best.achievedPerSecond(), best.gatewayCores()),
                    "processor_events_per_s_per_core", CpuWindow.perCore(best.achievedPerSecond(), best.processorCores())));
        }
        return json;
    }
}
