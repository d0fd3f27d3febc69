package io.sluice.bench.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.bench.process.CpuPerEvent;
import io.sluice.bench.process.CpuWindow;
import io.sluice.bench.run.PipelineCost;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.PipelineRun;
import io.sluice.bench.run.SinkThroughput;

/**
 * The report's first block: CPU per event of the whole pipeline and of each process with its parts,
 * the Kafka writes per event, then each ceiling's CPU per request or record beside Sluice's.
 */
final class CostReport {
    private CostReport() {
    }

    static void print(BenchResults r, PrintStream out) {
        PipelineResults p = r.pipeline();
        if (p == null || p.cost() == null) {
            return;
        }
        PipelineCost.Result cost = p.cost();
        CpuPerEvent cpu = cost.cpu();
        out.printf("%-34s %9.1f µs  (%d events at %.0f/s, charged over %.1f s less an idle %.2f cores; Kafka wrote %.2f records,"
                        + " %.0f bytes per event)%n", "CPU PER EVENT, whole pipeline", cpu.totalMicros(), cpu.events(),
                cost.offeredPerSecond(), cpu.seconds(), cpu.idleStackCores(),
                cost.kafka().recordsPerEvent(), cost.kafka().bytesPerEvent());
        for (String process : processes(cpu)) {
            List<String> parts = new ArrayList<>();
            cpu.microsByComponent().forEach((component, micros) -> {
                if (component.startsWith(process + ": ")) {
                    parts.add(String.format("%s %.1f", component.substring(process.length() + 2), micros));
                }
            });
            out.printf("%-34s %9.1f µs%s%n", "  " + process, cpu.microsOf(process), parts.isEmpty() ? "" : "  " + String.join(", ", parts));
        }
        out.printf("%-34s %s%n", "IDLE STACK", PipelineCost.idleStack(cpu));
        printCeilings(r, out);
    }

    /** Sluice's CPU per request or record where a ceiling's was measured in the same run. */
    private static void printCeilings(BenchResults r, PrintStream out) {
        PipelineResults p = r.pipeline();
        int top = PipelineRun.CONNECTIONS.get(PipelineRun.CONNECTIONS.size() - 1);
        Double gatewayCores = p.gatewayCores().get(top);
        if (gatewayCores != null && r.nettyCores() != null && r.nettyCores().get(top) != null) {
            double gateway = CpuWindow.microsPerEvent(gatewayCores, p.gateway().get(top).requestsPerSecond());
            double bare = CpuWindow.microsPerEvent(r.nettyCores().get(top), r.nettyCeiling().get(top).requestsPerSecond());
            out.printf("%-34s %9.1f µs  a request; bare Netty %.1f µs (gateway %.1fx)%n", "  gateway alone, " + top + " connections",
                    gateway, bare, gateway / bare);
        }
        out.printf("%-34s %9.1f µs  a record, its sink's inserts included%s%n", "  processor working off backlog",
                CpuWindow.microsPerEvent(p.processorBacklogCores(), p.processorRate()), r.streamsCopyMicrosPerRecord() == null ? ""
                        : String.format("; the exactly-once Kafka Streams copy %.1f µs (its threads)", r.streamsCopyMicrosPerRecord()));
        SinkThroughput sink = r.sink();
        if (sink != null) {
            out.printf("%-34s %9.1f µs  a row (its threads %.1f, ClickHouse %.1f); inserting the same rows directly %.1f µs"
                            + " (the inserting thread %.1f, ClickHouse %.1f)%n", "  sink alone", sink.sinkCpu().total(),
                    sink.sinkCpu().inserting(), sink.sinkCpu().clickHouse(), sink.jsonAtSinkBatchCpu().total(),
                    sink.jsonAtSinkBatchCpu().inserting(), sink.jsonAtSinkBatchCpu().clickHouse());
        }
    }

    /** The processes, in the order their components were read: the part of each name before ": ". */
    private static List<String> processes(CpuPerEvent cpu) {
        List<String> processes = new ArrayList<>();
        for (String component : cpu.microsByComponent().keySet()) {
            int colon = component.indexOf(": ");
            String process = colon < 0 ? component : component.substring(0, colon);
            if (!processes.contains(process)) {
                processes.add(process);
            }
        }
        return processes;
    }

    /** The JSON's {@code idle_stack}: the cores the stack burned with nothing sent, in all and by process; null when not measured. */
    static Map<String, Object> idleJson(PipelineResults p) {
        if (p == null || p.cost() == null) {
            return null;
        }
        CpuPerEvent cpu = p.cost().cpu();
        Map<String, Double> byProcess = new LinkedHashMap<>();
        PipelineCost.PROCESSES.forEach(process -> byProcess.put(process, cpu.idleCoresOf(process)));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("cores", cpu.idleStackCores());
        json.put("by_process_cores", byProcess);
        json.put("seconds", PipelineCost.IDLE_SECONDS);
        return json;
    }

    /** The JSON's {@code cpu_per_event}; null when not measured. */
    static Map<String, Object> json(PipelineResults p) {
        if (p == null || p.cost() == null) {
            return null;
        }
        CpuPerEvent cpu = p.cost().cpu();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("whole_pipeline_us", cpu.totalMicros());
        Map<String, Double> byProcess = new LinkedHashMap<>();
        processes(cpu).forEach(process -> byProcess.put(process, cpu.microsOf(process)));
        json.put("by_process_us", byProcess);
        json.put("by_component_us", cpu.microsByComponent());
        json.put("idle_cores", cpu.idleCores());
        json.put("events", cpu.events());
        json.put("charged_seconds", cpu.seconds());
        json.put("offered_per_s", p.cost().offeredPerSecond());
        json.put("load", p.cost().load());
        json.put("kafka_records_written_per_event", p.cost().kafka().recordsPerEvent());
        json.put("kafka_bytes_written_per_event", p.cost().kafka().bytesPerEvent());
        json.put("kafka_records_written_per_event_by_topic", p.cost().kafka().recordsPerEventByTopic());
        return json;
    }
}
