package io.sluice.bench.report;

import java.util.List;
import java.util.Map;

import io.sluice.bench.ceiling.InsertCeilings;
import io.sluice.bench.load.Wrk;
import io.sluice.bench.run.BenchStages;
import io.sluice.bench.run.PipelineResults;
import io.sluice.bench.run.ProducerExperiments;
import io.sluice.bench.run.SinkThroughput;
import io.sluice.bench.scenario.HugeTenant;

/**
 * Everything one run measured: the machine, the gateway's ceiling per connections and the cores it used, Sluice, the other
 * ceilings (Kafka Streams: the copy and its threads' CPU per record, and the processor's shape without its parsing), the sink alone, the producer
 * experiments (empty unless asked for), the processor's own topology in process without its sink, with and
 * without the transactions' per-route aggregates, and it again with one tenant at 90% of the traffic against
 * evenly spread tenants ({@link HugeTenant}). When a stage failed, {@code failure} names it and the figures of
 * that stage and of those after it are null.
 */
public record BenchResults(Map<String, Object> machine, Map<Integer, Wrk.Result> nettyCeiling, Map<Integer, Double> nettyCores,
                    PipelineResults pipeline,
                    Double producerCeiling, Double streamsCeiling, Double streamsCopyMicrosPerRecord, Double streamsShapeCeiling, InsertCeilings insertCeilings,
                    SinkThroughput sink, List<ProducerExperiments.Variant> producerExperiments, Double processorAlone,
                    Double processorAloneWithoutPerRoute, List<HugeTenant.Result> tenants, int partitions,
                    BenchStages.Failure failure) {
}
