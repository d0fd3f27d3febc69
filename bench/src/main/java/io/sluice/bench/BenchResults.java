package io.sluice.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything one run measured: the machine, the gateway's ceiling per connections, Sluice, the other
 * ceilings, the sink alone, and the producer experiments (empty unless asked for).
 */
record BenchResults(Map<String, Object> machine, Map<Integer, Wrk.Result> nettyCeiling, PipelineResults pipeline,
                    double producerCeiling, double streamsCeiling, InsertCeilings insertCeilings,
                    SinkThroughput sink, List<ProducerExperiments.Variant> producerExperiments) {
}
