package io.sluice.bench;

import java.util.Map;

/**
 * What the gateway and the processor achieved: per-connection gateway runs, the gzip and overload
 * runs, memory (KiB), the processor's rate over {@code published} records, and freshness; then the
 * CPU they used (cores: CPU seconds per second) — the gateway per connections, the processor
 * working off the backlog — the rate the pipeline sustains with freshness at half of it, and the
 * processor's memory budget.
 */
record PipelineResults(Map<Integer, Wrk.Result> gateway, Wrk.Result gzip, Wrk.Result overload,
                       long gatewayPeakRssKb, long gatewayOverloadRssKb,
                       long published, double processorRate, long processorBacklogRssKb, long processorAfterFreshnessRssKb,
                       double freshnessBestRequestsPerSecond, LoadedFreshness freshness, LoadedFreshness lightFreshness,
                       Map<Integer, Double> gatewayCores, double processorBacklogCores,
                       SustainedRate.Result sustained, LoadedFreshness sustainedFreshness, MemoryBudget processorBudget) {
}
