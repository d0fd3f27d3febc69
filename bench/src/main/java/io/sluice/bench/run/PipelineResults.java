package io.sluice.bench.run;

import java.util.Map;

import io.sluice.bench.load.Wrk;
import io.sluice.bench.process.MemoryBudget;

/**
 * What the gateway and the processor achieved: per-connection gateway runs, the gzip and overload
 * runs, memory (KiB), the processor's rate over the records the gateway's runs published while it waited
 * (the raw topic's end offsets by partition then), and freshness; then the
 * CPU they used (cores: CPU seconds per second) — the gateway per connections, the processor
 * working off the backlog — the rate the pipeline sustains with freshness at half of it, and the
 * processor's memory budget; CPU per event (null when not measured); the processor's timed backlog; the
 * latency of one event at a time on the idle stack; then the same without the per-route aggregates.
 */
public record PipelineResults(Map<Integer, Wrk.Result> gateway, Wrk.Result gzip, Wrk.Result overload,
                       long gatewayPeakRssKb, long gatewayOverloadRssKb,
                       Map<Integer, Long> publishedEndOffsets, double processorRate, long processorBacklogRssKb, long processorAfterFreshnessRssKb,
                       double freshnessBestRequestsPerSecond, LoadedFreshness freshness, LoadedFreshness lightFreshness,
                       Map<Integer, Double> gatewayCores, double processorBacklogCores,
                       SustainedRate.Result sustained, LoadedFreshness sustainedFreshness, MemoryBudget processorBudget,
                       PipelineCost.Result cost, Backlog backlog, IdleLatency.Result idleLatency, WithoutRoutes withoutRoutes) {
    /**
     * The backlog the processor's rate is measured on: {@code records}, after the {@code recordsBefore}
     * it had stored before them (the gateway's warm-up, its untimed first backlog, and the idle stage's
     * requests), which warmed its JVM.
     */
    public record Backlog(long recordsBefore, long records) {
        /** Where its rate is counted from: a fifth into it, as the Kafka Streams copy's is. */
        long clockStartsAt() {
            return recordsBefore + records / 5;
        }

        /** Records stored once it is worked off. */
        long end() {
            return recordsBefore + records;
        }
    }

    /**
     * The processor without the transactions' per-route aggregates, in the same run: its rate working
     * off the same backlog, and the pipeline's sustained rate with it (null when not measured).
     */
    public record WithoutRoutes(double processorRate, SustainedRate.Result sustained) {
    }

    public PipelineResults {
        publishedEndOffsets = Map.copyOf(publishedEndOffsets);
    }

    PipelineResults with(WithoutRoutes measured) {
        return new PipelineResults(gateway, gzip, overload, gatewayPeakRssKb, gatewayOverloadRssKb, publishedEndOffsets, processorRate,
                processorBacklogRssKb, processorAfterFreshnessRssKb, freshnessBestRequestsPerSecond, freshness, lightFreshness,
                gatewayCores, processorBacklogCores, sustained, sustainedFreshness, processorBudget, cost, backlog, idleLatency, measured);
    }

    /** The raw topic's offsets at the backlog's end (its records, and the gate's, see {@link BacklogGate}). */
    public long published() {
        return publishedEndOffsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
