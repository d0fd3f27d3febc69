package io.sluice.bench;

import java.util.Map;

/** Everything one run measured: the machine, the gateway's ceiling per connections, Sluice, the other ceilings. */
record BenchResults(Map<String, Object> machine, Map<Integer, Wrk.Result> nettyCeiling, PipelineResults pipeline,
                    double producerCeiling, double streamsCeiling, InsertCeilings insertCeilings) {
}
