package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.PreAggregation;

class RequestsByRouteSettingTest {

    @Test
    void withoutRequestsByRouteTheTopologyLacksExactlyTheRouteLimitItsPartialsAndTheTwoRequestWindows() {
        Set<String> every = stores(topology(Map.of()));
        Set<String> without = stores(topology(Map.of("SLUICE_PROCESSOR_REQUESTS_BY_ROUTE", "false")));

        Set<String> leftOut = new TreeSet<>(every);
        leftOut.removeAll(without);
        assertEquals(Set.of("transaction-routes", "request-partials", "requests-1m", "requests-1h"), leftOut);
    }

    private static Topology topology(Map<String, String> values) {
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        return ProcessorService.topology(config, config.kafka().topics(), new DeadLetterCounts(), new RecordsReadFromJson(),
                config.cardinalityLimits(), new PreAggregation());
    }

    private static Set<String> stores(Topology topology) {
        Set<String> stores = new TreeSet<>();
        for (TopologyDescription.Subtopology subtopology : topology.describe().subtopologies()) {
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    stores.addAll(processor.stores());
                }
            }
        }
        return stores;
    }
}
