package io.sluice.bench;

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

/** The report prints each run against its ceiling and writes the JSON fields earlier runs' files have. */
class BenchReportTest {
    @TempDir
    Path dir;

    private static Wrk.Result wrk(double requestsPerSecond) {
        return new Wrk.Result(requestsPerSecond, 1.5, 9.25, 20, 3, 0);
    }

    private static BenchResults results() {
        Map<Integer, Wrk.Result> ceiling = new LinkedHashMap<>();
        Map<Integer, Wrk.Result> gateway = new LinkedHashMap<>();
        for (int connections : PipelineRun.CONNECTIONS) {
            ceiling.put(connections, wrk(connections * 1000));
            gateway.put(connections, wrk(connections * 500));
        }
        LoadedFreshness freshness = new LoadedFreshness(new Freshness.Result(40, 300, 900), 60_000);
        PipelineResults pipeline = new PipelineResults(gateway, wrk(16_000), wrk(100_000), 200 * 1024, 300 * 1024,
                1_000_000, 25_000, 700 * 1024, 800 * 1024, 128_000, freshness, freshness);
        return new BenchResults(Map.of("cores", 2), ceiling, pipeline, 150_000, 50_000, new InsertCeilings(100_000, 400_000));
    }

    @Test
    void eachGatewayRunIsPrintedAsAShareOfTheBareNettyCeiling() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new BenchReport(new PrintStream(printed, true, StandardCharsets.UTF_8)).write(results(), dir.resolve("run.json"));
        List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
        String row = lines.get(2);
        assertEquals("gateway, 16 connections", row.substring(0, 34).strip());
        assertEquals(List.of("8000", "16000", "50%", "1.50", "9.25", "20.00"), List.of(row.substring(34).strip().split("\\s+")));
        assertTrue(lines.contains("processor peak RSS                       700 MB working off 1000000 records at full speed, "
                + "800 MB after the freshness runs"), String.join("\n", lines));
        assertEquals("written to " + dir.resolve("run.json"), lines.get(lines.size() - 1));
    }

    @Test
    void theJsonKeepsTheFieldsAndOrderOfEarlierRuns() throws Exception {
        Path file = dir.resolve("run.json");
        new BenchReport(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).write(results(), file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("machine", "freshness_best_requests_per_s", "processor_peak_rss_mb", "freshness_half_load",
                "freshness_light_load", "gateway", "gateway_gzip_64", "gateway_overload_768", "kafka_producer_records_per_s",
                "processor", "gateway_peak_rss_mb"), fields);
        assertEquals(25_000, json.at("/processor/records_per_s").asDouble());
        assertEquals(300, json.at("/gateway_peak_rss_mb/after_overload").asLong());
        assertEquals(60_000, json.at("/freshness_half_load/loadRequestsPerSecond").asDouble());
        assertEquals(256, json.at("/gateway/2/connections").asInt());
    }
}
