package io.sluice.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything one run measured: the machine, the gateway's ceiling per connections, Sluice, the other
 * ceilings (Kafka Streams: the copy, and the processor's shape without its parsing), the sink alone, the producer
 * experiments (empty unless asked for), the processor's own topology in process without its sink, with and
 * without the transactions' per-route aggregates, and it again with one tenant at 90% of the traffic against
 * evenly spread tenants ({@link HugeTenant}).
 */
record BenchResults(Map<String, Object> machine, Map<Integer, Wrk.Result> nettyCeiling, PipelineResults pipeline,
                    double producerCeiling, double streamsCeiling, double streamsShapeCeiling, InsertCeilings insertCeilings,
                    SinkThroughput sink, List<ProducerExperiments.Variant> producerExperiments, double processorAlone,
                    double processorAloneWithoutPerRoute, List<HugeTenant.Result> tenants, int partitions) {
}
