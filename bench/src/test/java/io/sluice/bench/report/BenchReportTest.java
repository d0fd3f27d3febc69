package io.sluice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.bench.ceiling.InsertCeilings;
import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.MemoryBudget;
import io.sluice.bench.run.BenchStages;
import io.sluice.bench.run.Freshness;
import io.sluice.bench.run.IdleLatency;
import io.sluice.bench.run.LoadedFreshness;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.PipelineRun;
import io.sluice.bench.run.ProducerExperiments;
import io.sluice.bench.run.SinkThroughput;
import io.sluice.bench.run.SustainedRate;
import io.sluice.bench.scenario.HugeTenant;

/** The report prints each run against its ceiling and writes the JSON fields earlier runs' files have. */
class BenchReportTest {
    @TempDir
    Path dir;

    private static Wrk.Result wrk(double requestsPerSecond) {
        return new Wrk.Result(requestsPerSecond, 1.5, 9.25, 20, 3, 0, 10 * (long) requestsPerSecond);
    }

    static BenchResults results() {
        Map<Integer, Wrk.Result> ceiling = new LinkedHashMap<>();
        Map<Integer, Wrk.Result> gateway = new LinkedHashMap<>();
        for (int connections : PipelineRun.CONNECTIONS) {
            ceiling.put(connections, wrk(connections * 1000));
            gateway.put(connections, wrk(connections * 500));
        }
        LoadedFreshness freshness = new LoadedFreshness(new Freshness.Result(40, 300, 900, 38, 200, 600), 60_000);
        Map<Integer, Double> gatewayCores = new LinkedHashMap<>();
        PipelineRun.CONNECTIONS.forEach(connections -> gatewayCores.put(connections, 0.5));
        SustainedRate.Result sustained = new SustainedRate.Result(12_000, 25_000, List.of(
                new SustainedRate.Step(15_000, 14_000, 40_000, 14_000, false, 1.0, 1.5, wrk(14_000)),
                new SustainedRate.Step(7_500, 7_500, 100, 7_500, true, 0.5, 1.0, wrk(7_500)),
                new SustainedRate.Step(12_000, 12_000, 2_000, 12_000, true, 0.8, 1.2, wrk(12_000))));
        LoadedFreshness halfSustained = new LoadedFreshness(new Freshness.Result(90, 800, 1_900, 87, 500, 1_200), 6_000);
        PipelineResults pipeline = new PipelineResults(gateway, wrk(16_000), wrk(100_000), 200 * 1024, 300 * 1024,
                Map.of(0, 600_000L, 1, 400_000L), 25_000, 700 * 1024, 800 * 1024, 128_000, freshness, freshness, gatewayCores, 1.25, sustained,
                halfSustained, new MemoryBudget(512, 256, 200), null, new PipelineResults.Backlog(60_000, 940_000),
                new IdleLatency.Result(new Wrk.Result(410, 2.43, 8.5, 14, 0, 0, 2_050), new Wrk.Result(330, 3.02, 19.75, 31, 0, 0, 1_650), 3),
                new PipelineResults.WithoutRoutes(28_000,
                        new SustainedRate.Result(13_000, 25_000, List.of(new SustainedRate.Step(13_000, 13_000, 100, 13_000, true, 0.8, 1.3,
                                wrk(13_000))))));
        return new BenchResults(Map.of("cores", 2), ceiling, null, pipeline, 150_000.0, 50_000.0, null, 31_000.0, new InsertCeilings(100_000, 400_000),
                new SinkThroughput(200_000, 30_000, 40_000, 80_000, 38_000, 90_000, 34_000,
                        new SinkThroughput.CpuPerRow(6.0, 8.0), new SinkThroughput.CpuPerRow(1.5, 8.0)),
                List.of(new ProducerExperiments.Variant("linger 0 ms", Map.of("SLUICE_GATEWAY_PRODUCER_LINGER", "0ms"),
                        Map.of(64, wrk(32_000)), new ProducerExperiments.Paced(6_000, wrk(5_900), 0.25, 0.5),
                        new Wrk.Result(450, 1.31, 4.2, 9, 0, 0, 2_250))), 33_000.0, 40_000.0,
                List.of(new HugeTenant.Result("one tenant at 90%", 400_000, 30_000, Map.of("0_0", 150_000L, "0_1", 250_000L, "0_2", 0L), 2_000),
                        new HugeTenant.Result("100 tenants evenly", 400_000, 31_000, Map.of("0_0", 200_000L, "0_1", 200_000L), 8_000)), 4,
                null);
    }

    /** {@link #results()} as a run that failed in the huge-tenant stage: what came before it, nothing after. */
    static BenchResults failedAtHugeTenant() {
        BenchResults all = results();
        return new BenchResults(all.machine(), all.nettyCeiling(), all.nettyCores(), all.pipeline(), all.producerCeiling(), all.streamsCeiling(),
                all.streamsCopyMicrosPerRecord(), all.streamsShapeCeiling(), null, null, null, all.processorAlone(), all.processorAloneWithoutPerRoute(), null,
                all.partitions(), new BenchStages.Failure(HUGE_TENANT_STAGE, "java.lang.IllegalStateException: could not write "
                        + "the bench's raw transactions to bench.tenants-huge-1.transactions"));
    }

    private static final String HUGE_TENANT_STAGE = "the processor's own topology again: one tenant at 90% of the traffic";

    @Test
    void aRunThatFailedInAStagePrintsWhatWasMeasuredBeforeItAndNamesTheStage() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(printed, true, StandardCharsets.UTF_8)).write(failedAtHugeTenant(), dir.resolve("run.json"),
                dir.resolve("run.svg"));
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of("8000", "16000", "50%", "1.50", "9.25", "20.00"), List.of(lines.get(2).substring(34).strip().split("\\s+")));
        assertTrue(lines.contains("processor's Streams application           33000        50000      66%   (its topology alone, "
                + "no sink, vs the copy: like for like)"), String.join("\n", lines));
        assertTrue(lines.contains("STOPPED at \"" + HUGE_TENANT_STAGE + "\": java.lang.IllegalStateException: could not write the "
                + "bench's raw transactions to bench.tenants-huge-1.transactions; not measured: that stage and those after it"),
                String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(line -> line.startsWith("sink alone")), String.join("\n", lines));
    }

    @Test
    void aRunThatFailedInAStageWritesItsJsonWithWhatWasMeasuredAndTheFailedStage() throws Exception {
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).write(failedAtHugeTenant(), file,
                dir.resolve("run.svg"));
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(25_000, json.at("/processor/records_per_s").asDouble());
        assertEquals(33_000, json.at("/processor_streams_alone_records_per_s").asDouble());
        assertEquals(HUGE_TENANT_STAGE, json.at("/failed_stage/stage").asText());
        assertTrue(json.at("/processor_tenants").isMissingNode(), json.toPrettyString());
        assertTrue(json.at("/sink").isMissingNode(), json.toPrettyString());
        assertTrue(json.at("/processor/clickhouse_rowbinary_ceiling_rows_per_s").isMissingNode(), json.toPrettyString());
    }

    @Test
    void theHugeTenantRunsArePrintedWithTheTasksThatCountedAndTheirSums() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(out, true, StandardCharsets.UTF_8)).write(results(), dir.resolve("run.json"), dir.resolve("run.svg"));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("processor, one tenant at 90%              30000   counted by 2 of 4 tasks (the busiest added up 63% "
                + "of the transactions); 2000 sums through the repartition, 200 transactions a sum"), printed);
        assertTrue(printed.contains("processor, 100 tenants evenly             31000   counted by 2 of 4 tasks"), printed);
    }

    @Test
    void theSustainedRateIsPrintedAsAShareOfTheRateWithoutThePerRouteAggregates() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(out, true, StandardCharsets.UTF_8)).write(results(), dir.resolve("run.json"), dir.resolve("run.svg"));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("13000 events/s  without the per-route aggregates: with them 92% of it (target >= 85%: met)"), printed);
        assertTrue(printed.contains("25000 records/s working off the backlog through ClickHouse, 28000 without them: 89%"), printed);
    }

    @Test
    void eachGatewayRunIsPrintedAsAShareOfTheBareNettyCeiling() throws Exception {
        List<String> lines = printedLines();
        String row = lines.get(2);
        assertEquals("gateway, 16 connections", row.substring(0, 34).strip());
        assertEquals(List.of("8000", "16000", "50%", "1.50", "9.25", "20.00"), List.of(row.substring(34).strip().split("\\s+")));
        assertTrue(lines.contains("processor peak RSS                       700 MB working off 940000 records at full speed, "
                + "800 MB after the freshness runs"), String.join("\n", lines));
        assertEquals("written to " + dir.resolve("run.json"), lines.get(lines.size() - 1));
    }

    @Test
    void theJsonKeepsTheFieldsAndOrderOfEarlierRuns() throws Exception {
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).write(results(), file,
                dir.resolve("run.svg"));
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("machine", "freshness_best_requests_per_s", "processor_peak_rss_mb", "freshness_half_load",
                "freshness_light_load", "gateway", "gateway_gzip_64", "gateway_overload_768", "kafka_producer_records_per_s",
                "processor", "gateway_peak_rss_mb"), fields.subList(0, 11));
        assertEquals(25_000, json.at("/processor/records_per_s").asDouble());
        assertEquals(300, json.at("/gateway_peak_rss_mb/after_overload").asLong());
        assertEquals(60_000, json.at("/freshness_half_load/loadRequestsPerSecond").asDouble());
        assertEquals(256, json.at("/gateway/2/connections").asInt());
    }

    @Test
    void theNewFiguresFollowTheOldFieldsInTheJson() throws Exception {
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).write(results(), file,
                dir.resolve("run.svg"));
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("sustained", "freshness_half_sustained", "per_core", "processor_rss_budget_mb", "idle_latency",
                "producer_experiments", "sink", "kafka_streams_processor_shape_ceiling_records_per_s",
                "processor_streams_alone_records_per_s", "processor_streams_alone_without_per_route_records_per_s",
                "processor_tenants", "without_per_route_aggregates", "against_release"),
                fields.subList(11, fields.size()));
        assertEquals(31_000, json.at("/kafka_streams_processor_shape_ceiling_records_per_s").asDouble());
        assertEquals(33_000, json.at("/processor_streams_alone_records_per_s").asDouble());
        assertEquals(40_000, json.at("/processor_streams_alone_without_per_route_records_per_s").asDouble());
        assertEquals(12_000, json.at("/sustained/events_per_s").asDouble());
        assertEquals(3, json.at("/sustained/steps").size());
        assertEquals(1_900, json.at("/freshness_half_sustained/freshness/p99Millis").asDouble());
        assertEquals(10_000, json.at("/per_core/at_sustained_rate/processor_events_per_s_per_core").asDouble(), 1e-9);
        assertEquals(968, json.at("/processor_rss_budget_mb/total").asLong());
        assertEquals("0ms", json.at("/producer_experiments/0/settings/SLUICE_GATEWAY_PRODUCER_LINGER").asText());
        assertEquals(1.31, json.at("/producer_experiments/0/idle_v1_keep_alive/p50Millis").asDouble());
    }

    @Test
    void theIdleLatencyFollowsTheGatewayRunsAgainstTheTargetOf3MsAtP50() throws Exception {
        List<String> lines = printedLines();
        int overload = lines.indexOf(lines.stream().filter(line -> line.startsWith("gateway, 3x overload")).findFirst().orElseThrow());
        assertEquals(List.of(
                "idle latency, v1 keep-alive        p50 2.43 ms, p99 8.50 ms (2,050 requests one at a time, after 3 s of the same; "
                        + "target p50 <= 3 ms: met)",
                "idle latency, envelope, new conn.  p50 3.02 ms, p99 19.75 ms (1,650 requests one at a time, after 3 s of the same; "
                        + "target p50 <= 3 ms: not met)"), lines.subList(overload + 1, overload + 3));
    }

    @Test
    void theIdleLatencyIsWrittenToTheJsonWithItsTarget() throws Exception {
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).write(results(), file,
                dir.resolve("run.svg"));
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(3.0, json.at("/idle_latency/target_p50_ms").asDouble());
        assertEquals(3, json.at("/idle_latency/warm_seconds").asInt());
        assertEquals(2.43, json.at("/idle_latency/v1_keep_alive/p50Millis").asDouble());
        assertEquals(1_650, json.at("/idle_latency/envelope_new_connections/requests").asLong());
        assertEquals(19.75, json.at("/idle_latency/envelope_new_connections/p99Millis").asDouble());
    }

    @Test
    void theIdleLatencyIsNewAgainstTheRelease() throws Exception {
        List<String> lines = printedLines();
        assertTrue(lines.contains("idle_v1_p50_ms                                ?        2.43       ?   ±50%  new: the release did "
                + "not measure it"), String.join("\n", lines));
        assertTrue(lines.contains("idle_envelope_p99_ms                          ?       19.75       ?  ±150%  new: the release did "
                + "not measure it"), String.join("\n", lines));
    }

    @Test
    void theProcessorsBacklogSaysItsRecordsAndWhatWarmedIt() throws Exception {
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).write(results(), file,
                dir.resolve("run.svg"));
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(940_000, json.at("/processor/records").asLong());
        assertEquals(60_000, json.at("/processor/warmed_on_records").asLong());
        assertTrue(printedLines().contains("processor, records/s                      25000       400000       6%   (940000 records, "
                + "warm; ceiling: RowBinary insert)"), String.join("\n", printedLines()));
    }

    @Test
    void eachProducerExperimentShowsTheCoresItsGatewayAndTheBrokerUsedAtAFixedRateAndItsIdleLatency() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(printed, true, StandardCharsets.UTF_8)).write(results(), file, dir.resolve("run.svg"));
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        String row = lines.get(lines.indexOf(lines.stream().filter(l -> l.startsWith("producer experiment, fixed rate"))
                .findFirst().orElseThrow()) + 1);
        assertEquals("linger 0 ms", row.substring(0, 34).strip());
        assertEquals(List.of("6000", "5900", "1.50", "9.25", "0.25", "0.50", "1.31"), List.of(row.substring(34).strip().split("\\s+")));
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(0.5, json.at("/producer_experiments/0/paced/brokerCores").asDouble());
    }

    @Test
    void theProcessorIsPrintedAgainstStreamsInItsShapeAndTheShapeAgainstTheCopy() throws Exception {
        List<String> lines = printedLines();
        assertTrue(lines.contains(" ".repeat(35) + "       25000        31000      81%   (ceiling: Kafka Streams in the processor's "
                + "shape, no parsing)"), String.join("\n", lines));
        assertTrue(lines.contains("Kafka Streams, processor's shape          31000        50000      62%   (the shape's own cost: "
                + "shape vs copy)"), String.join("\n", lines));
    }

    @Test
    void theProcessorsTopologyAloneIsPrintedAgainstTheCopy() throws Exception {
        List<String> lines = printedLines();
        assertTrue(lines.contains("processor's Streams application           33000        50000      66%   (its topology alone, "
                + "no sink, vs the copy: like for like)"), String.join("\n", lines));
    }

    @Test
    void theProcessorsTopologyAloneIsPrintedAgainstItselfWithoutThePerRouteAggregates() throws Exception {
        List<String> lines = printedLines();
        assertTrue(lines.contains("                                          33000        40000      83%   (with the per-route "
                + "aggregates vs without them, same records)"), String.join("\n", lines));
    }

    @Test
    void theSustainedRateIsPrintedWithFreshnessAtHalfOfItAgainstItsTarget() throws Exception {
        List<String> lines = printedLines();
        assertTrue(lines.contains("SUSTAINED RATE, gateway+processor      12000 events/s  (processor lag flat within 1 s of "
                + "the rate over 3 steps)"), String.join("\n", lines));
        assertTrue(lines.contains("freshness at half the sustained    p50 800 ms, p99 1900 ms (90 markers, load 6000 req/s; "
                + "target p99 <= 2000 ms: met)"), String.join("\n", lines));
    }

    @Test
    void freshnessIsSplitIntoTheProcessorsPartAndTheRest() throws Exception {
        List<String> lines = printedLines();
        int half = lines.indexOf("freshness at half the sustained    p50 800 ms, p99 1900 ms (90 markers, load 6000 req/s; "
                + "target p99 <= 2000 ms: met)");
        assertEquals(" ".repeat(35) + "p50 500 ms, p99 1200 ms to the count committed in the traffic topic (the processor's part; "
                + "87 markers)", lines.get(half + 1), String.join("\n", lines));
        Path file = dir.resolve("run.json");
        assertEquals(1_200, new ObjectMapper().readTree(file.toFile()).at("/freshness_half_sustained/freshness/countedP99Millis").asDouble());
        assertEquals(87, new ObjectMapper().readTree(file.toFile()).at("/freshness_half_sustained/freshness/countedMarkers").asInt());
    }

    @Test
    void perCoreFiguresDivideTheRateByTheCoresUsed() throws Exception {
        List<String> lines = printedLines();
        assertTrue(lines.contains("gateway per core                      256000 events/s per core (128000 req/s on 0.50 cores, "
                + "256 connections, gateway alone)"), String.join("\n", lines));
        assertTrue(lines.contains("processor per core                     20000 events/s per core (25000 records/s on 1.25 cores, "
                + "working off the backlog)"), String.join("\n", lines));
        assertTrue(lines.contains("at the sustained rate              gateway 0.80 cores (15000 events/s per core), processor 1.20 "
                + "cores (10000 events/s per core)"), String.join("\n", lines));
    }

    @Test
    void theProcessorsRssIsPrintedAgainstItsBudget() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(printed, true, StandardCharsets.UTF_8)).write(results(), dir.resolve("run.json"),
                dir.resolve("run.svg"));
        assertTrue(printed.toString(StandardCharsets.UTF_8).lines().toList().contains("processor RSS against its budget   "
                + "      700 MB peak working off the backlog, budget 968 MB (heap 512 + RocksDB 256 + 200 other): within"),
                printed.toString(StandardCharsets.UTF_8));
    }

    /** What the report prints for {@link #results()}, by line. */
    private List<String> printedLines() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(printed, true, StandardCharsets.UTF_8)).write(results(), dir.resolve("run.json"),
                dir.resolve("run.svg"));
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
