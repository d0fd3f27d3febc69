package io.sluice.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything one run measured: the machine, the gateway's ceiling per connections, Sluice, the other
 * ceilings, and the producer experiments (empty unless asked for).
 */
record BenchResults(Map<String, Object> machine, Map<Integer, Wrk.Result> nettyCeiling, PipelineResults pipeline,
                    double producerCeiling, double streamsCeiling, InsertCeilings insertCeilings,
                    List<ProducerExperiments.Variant> producerExperiments) {
}
