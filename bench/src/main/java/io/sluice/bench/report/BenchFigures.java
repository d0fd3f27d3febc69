package io.sluice.bench.report;

import java.util.LinkedHashMap;
import java.util.Map;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.CpuPerEvent;
import io.sluice.bench.process.CpuWindow;
import io.sluice.bench.run.PipelineCost;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.PipelineRun;

/** A run's figures under the names the release baseline ({@link Baseline}) gives them; a figure not measured is left out. */
final class BenchFigures {
    private BenchFigures() {
    }

    static Map<String, Double> of(BenchResults r) {
        Map<String, Double> figures = new LinkedHashMap<>();
        PipelineResults p = r.pipeline();
        if (p != null) {
            if (p.cost() != null) {
                CpuPerEvent cpu = p.cost().cpu();
                figures.put("pipeline_cpu_us_per_event", cpu.totalMicros());
                for (String process : PipelineCost.PROCESSES) {
                    figures.put(process + "_cpu_us_per_event", cpu.microsOf(process));
                }
                figures.put("kafka_records_written_per_event", p.cost().kafka().recordsPerEvent());
                figures.put("kafka_bytes_written_per_event", p.cost().kafka().bytesPerEvent());
                figures.put("idle_stack_cores", cpu.idleStackCores());
                for (String process : PipelineCost.PROCESSES) {
                    figures.put(process + "_idle_cores", cpu.idleCoresOf(process));
                }
            }
            int top = PipelineRun.CONNECTIONS.get(PipelineRun.CONNECTIONS.size() - 1);
            Wrk.Result gateway = p.gateway().get(top);
            Double gatewayCores = p.gatewayCores().get(top);
            if (gateway != null && gatewayCores != null) {
                figures.put("gateway_alone_cpu_us_per_request_" + top, CpuWindow.microsPerEvent(gatewayCores, gateway.requestsPerSecond()));
            }
            if (gateway != null) {
                figures.put("gateway_" + top + "_req_per_s", gateway.requestsPerSecond());
                if (r.nettyCeiling() != null && r.nettyCeiling().get(top) != null) {
                    figures.put("gateway_" + top + "_share_of_bare_netty",
                            gateway.requestsPerSecond() / r.nettyCeiling().get(top).requestsPerSecond());
                }
            }
            figures.put("processor_backlog_cpu_us_per_record", CpuWindow.microsPerEvent(p.processorBacklogCores(), p.processorRate()));
            figures.put("processor_records_per_s", p.processorRate());
            if (r.streamsCeiling() != null) {
                figures.put("processor_share_of_streams_copy", p.processorRate() / r.streamsCeiling());
            }
            if (p.sustained() != null) {
                figures.put("sustained_events_per_s", p.sustained().eventsPerSecond());
            }
            if (p.idleLatency() != null) {
                figures.put("idle_v1_p50_ms", p.idleLatency().v1KeepAlive().p50Millis());
                figures.put("idle_v1_p99_ms", p.idleLatency().v1KeepAlive().p99Millis());
                figures.put("idle_envelope_p50_ms", p.idleLatency().envelopeNewConnections().p50Millis());
                figures.put("idle_envelope_p99_ms", p.idleLatency().envelopeNewConnections().p99Millis());
            }
        }
        if (r.nettyCores() != null) {
            int top = PipelineRun.CONNECTIONS.get(PipelineRun.CONNECTIONS.size() - 1);
            figures.put("bare_netty_cpu_us_per_request_" + top,
                    CpuWindow.microsPerEvent(r.nettyCores().get(top), r.nettyCeiling().get(top).requestsPerSecond()));
        }
        figures.put("streams_copy_cpu_us_per_record", r.streamsCopyMicrosPerRecord());
        figures.put("kafka_producer_records_per_s", r.producerCeiling());
        figures.put("processor_alone_records_per_s", r.processorAlone());
        if (r.sink() != null) {
            figures.put("sink_rows_per_s", r.sink().sink());
            figures.put("sink_share_of_jsoneachrow", r.sink().ratioToJsonEachRow());
            figures.put("sink_cpu_us_per_row", r.sink().sinkCpu().total());
            figures.put("direct_insert_cpu_us_per_row", r.sink().jsonAtSinkBatchCpu().total());
        }
        figures.values().removeIf(java.util.Objects::isNull);
        return figures;
    }
}
