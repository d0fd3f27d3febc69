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

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.CpuPerEvent;
import io.sluice.bench.run.KafkaWrites;
import io.sluice.bench.run.PipelineCost;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.PipelineRun;

/** CPU per event is the report's first figure, beside the ceilings' CPU, and the report says what moved since the release. */
class BenchCostReportTest {
    @TempDir
    Path dir;

    static BenchResults withCost() {
        BenchResults all = BenchReportTest.results();
        Map<String, Double> micros = new LinkedHashMap<>();
        micros.put("gateway: event loops", 30.0);
        micros.put("gateway: read workers", 0.0);
        micros.put("gateway: Kafka producer I/O", 10.0);
        micros.put("gateway: other (GC, JIT, the rest)", 5.0);
        micros.put("broker: request handlers", 60.0);
        micros.put("broker: network threads", 20.0);
        micros.put("broker: other (GC, JIT, the rest)", 10.0);
        micros.put("processor: stream threads", 50.0);
        micros.put("processor: Kafka producers", 15.0);
        micros.put("processor: ClickHouse sink", 10.0);
        micros.put("processor: other (GC, JIT, the rest)", 5.0);
        micros.put("clickhouse", 25.0);
        Map<String, Double> idle = new LinkedHashMap<>();
        // 0.30 cores idle: gateway 0.08, broker 0.12, processor 0.07, ClickHouse 0.03
        micros.keySet().forEach(component -> idle.put(component, component.startsWith("gateway") ? 0.02
                : component.startsWith("broker") ? 0.04 : component.startsWith("processor") ? 0.0175 : 0.03));
        PipelineCost.Result cost = new PipelineCost.Result(new CpuPerEvent(micros, idle, 20_000, 12.5),
                new KafkaWrites(6.25, 2_400, Map.of("sluice.transactions", 1.0)), 3_000, new Wrk.Result(3_000, 2, 8, 12, 0, 0, 30_000));
        PipelineResults p = all.pipeline();
        PipelineResults pipeline = new PipelineResults(p.gateway(), p.gzip(), p.overload(), p.gatewayPeakRssKb(), p.gatewayOverloadRssKb(),
                p.publishedEndOffsets(), p.processorRate(), p.processorBacklogRssKb(), p.processorAfterFreshnessRssKb(),
                p.freshnessBestRequestsPerSecond(), p.freshness(), p.lightFreshness(), p.gatewayCores(), p.processorBacklogCores(),
                p.sustained(), p.sustainedFreshness(), p.processorBudget(), cost, p.backlog(), p.idleLatency(), p.withoutRoutes());
        Map<Integer, Double> nettyCores = new LinkedHashMap<>();
        PipelineRun.CONNECTIONS.forEach(connections -> nettyCores.put(connections, 0.25));
        return new BenchResults(all.machine(), all.nettyCeiling(), nettyCores, pipeline, all.producerCeiling(), all.streamsCeiling(),
                12.0, all.streamsShapeCeiling(), all.insertCeilings(), all.sink(), all.producerExperiments(), all.processorAlone(),
                all.processorAloneWithoutPerRoute(), all.tenants(), all.partitions(), all.failure());
    }

    @Test
    void cpuPerEventOfTheWholePipelineIsTheFirstFigurePrinted() throws Exception {
        List<String> lines = printed(withCost());
        assertEquals("CPU PER EVENT, whole pipeline          240.0 µs  (20000 events at 3000/s, charged over 12.5 s less an idle "
                + "0.30 cores; Kafka wrote 6.25 records, 2400 bytes per event)", lines.get(1), String.join("\n", lines));
    }

    @Test
    void eachProcessesCpuPerEventIsPrintedWithItsParts() throws Exception {
        List<String> lines = printed(withCost());
        assertTrue(lines.contains("  broker                                90.0 µs  request handlers 60.0, network threads 20.0, "
                + "other (GC, JIT, the rest) 10.0"), String.join("\n", lines));
        assertTrue(lines.contains("  clickhouse                            25.0 µs"), String.join("\n", lines));
    }

    @Test
    void theIdleStackIsAFigureOfItsOwnInCoresByProcess() throws Exception {
        List<String> lines = printed(withCost());
        assertTrue(lines.contains("IDLE STACK                         30.0% of a core: gateway 8.0%, processor 7.0%, broker 12.0%, "
                + "ClickHouse 3.0% (10 s idle before the load)"), String.join("\n", lines));
    }

    @Test
    void theIdleStackIsAFigureOfItsOwnInTheJson() throws Exception {
        JsonNode json = json(withCost());
        assertEquals(0.30, json.at("/idle_stack/cores").asDouble(), 1e-9);
        assertEquals(0.08, json.at("/idle_stack/by_process_cores/gateway").asDouble(), 1e-9);
        assertEquals(0.07, json.at("/idle_stack/by_process_cores/processor").asDouble(), 1e-9);
        assertEquals(0.12, json.at("/idle_stack/by_process_cores/broker").asDouble(), 1e-9);
        assertEquals(0.03, json.at("/idle_stack/by_process_cores/clickhouse").asDouble(), 1e-9);
        assertEquals(10, json.at("/idle_stack/seconds").asInt());
    }

    @Test
    void theIdleStackIsComparedWithTheReleaseWhichDidNotMeasureIt() throws Exception {
        List<String> lines = printed(withCost());
        assertTrue(lines.contains("idle_stack_cores                              ?        0.30       ?   ±50%  new: the release did not "
                + "measure it"), String.join("\n", lines));
        assertTrue(lines.contains("broker_idle_cores                             ?        0.12       ?   ±50%  new: the release did not "
                + "measure it"), String.join("\n", lines));
    }

    @Test
    void theGatewaysCpuPerRequestIsPrintedBesideBareNettysInTheSameRun() throws Exception {
        List<String> lines = printed(withCost());
        // gateway: 0.5 cores at 128,000 req/s; bare Netty: 0.25 cores at 256,000 req/s
        assertTrue(lines.contains("  gateway alone, 256 connections         3.9 µs  a request; bare Netty 1.0 µs (gateway 4.0x)"),
                String.join("\n", lines));
    }

    @Test
    void theProcessorsCpuPerRecordIsPrintedBesideTheStreamsCopys() throws Exception {
        List<String> lines = printed(withCost());
        // 1.25 cores at 25,000 records/s
        assertTrue(lines.contains("  processor working off backlog         50.0 µs  a record, its sink's inserts included; "
                + "the exactly-once Kafka Streams copy 12.0 µs (its threads)"), String.join("\n", lines));
    }

    @Test
    void theSinksCpuPerRowIsPrintedBesideInsertingTheSameRowsDirectly() throws Exception {
        List<String> lines = printed(withCost());
        assertTrue(lines.contains("  sink alone                            14.0 µs  a row (its threads 6.0, ClickHouse 8.0); inserting the "
                + "same rows directly 9.5 µs (the inserting thread 1.5, ClickHouse 8.0)"), String.join("\n", lines));
    }

    @Test
    void theSinksCpuPerRowIsComparedWithTheRelease() throws Exception {
        List<String> lines = printed(withCost());
        assertTrue(lines.contains("sink_cpu_us_per_row                           ?       14.00       ?   ±30%  new: the release did not "
                + "measure it"), String.join("\n", lines));
        assertTrue(lines.contains("direct_insert_cpu_us_per_row                  ?        9.50       ?   ±30%  new: the release did not "
                + "measure it"), String.join("\n", lines));
    }

    @Test
    void cpuPerEventIsTheFirstFigureInTheJson() throws Exception {
        JsonNode json = json(withCost());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("machine", "cpu_per_event"), fields.subList(0, 2));
        assertEquals(240.0, json.at("/cpu_per_event/whole_pipeline_us").asDouble(), 1e-9);
        assertEquals(90.0, json.at("/cpu_per_event/by_process_us/broker").asDouble(), 1e-9);
        assertEquals(60.0, json.at("/cpu_per_event/by_component_us/broker: request handlers").asDouble(), 1e-9);
        assertEquals(6.25, json.at("/cpu_per_event/kafka_records_written_per_event").asDouble(), 1e-9);
        assertEquals(2_400, json.at("/cpu_per_event/kafka_bytes_written_per_event").asDouble(), 1e-9);
        assertEquals(20_000, json.at("/cpu_per_event/events").asLong());
    }

    @Test
    void theReportSaysWhichFiguresMovedBeyondTheSpreadSinceTheRelease() throws Exception {
        List<String> lines = printed(withCost());
        // sink 30,000 rows/s against the release's 135,560: -78%, beyond its 50%
        assertTrue(lines.contains("sink_rows_per_s                       135560.00    30000.00    -78%   ±50%  MOVED: worse"),
                String.join("\n", lines));
        // the processor's topology alone 33,000 records/s against 61,648: -46%, within 50%
        assertTrue(lines.contains("processor_alone_records_per_s          61648.00    33000.00    -46%   ±50%  within the spread"),
                String.join("\n", lines));
        assertTrue(lines.contains("pipeline_cpu_us_per_event                     ?      240.00       ?   ±30%  new: the release did not measure it"),
                String.join("\n", lines));
    }

    @Test
    void theJsonSaysWhichFiguresMovedBeyondTheSpread() throws Exception {
        JsonNode json = json(withCost());
        JsonNode sink = null;
        for (JsonNode figure : json.at("/against_release/figures")) {
            if (figure.get("figure").asText().equals("sink_rows_per_s")) {
                sink = figure;
            }
        }
        assertEquals("WORSE", sink.get("verdict").asText(), json.toPrettyString());
        assertEquals(30_000, sink.get("current").asDouble(), 1e-9);
        assertEquals("2026-11-26", json.at("/against_release/release").asText());
    }

    private List<String> printed(BenchResults results) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(printed, true, StandardCharsets.UTF_8)).write(results, dir.resolve("run.json"),
                dir.resolve("run.svg"));
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private JsonNode json(BenchResults results) throws Exception {
        printed(results);
        return new ObjectMapper().readTree(dir.resolve("run.json").toFile());
    }
}
