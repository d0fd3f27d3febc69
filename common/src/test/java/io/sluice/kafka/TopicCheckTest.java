package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

class TopicCheckTest {
    private static final NewTopic REGISTRY = new NewTopic("sluice.projects", 1, (short) 3)
            .configs(Map.of("cleanup.policy", "compact", "min.insync.replicas", "2"));
    private static final NewTopic RAW = new NewTopic("sluice.transactions", 12, (short) 3)
            .configs(Map.of("retention.ms", "604800000", "min.insync.replicas", "2"));

    @Test
    void aTopicAsSluiceWouldCreateItHasNoDifferences() {
        assertEquals(List.of(), TopicCheck.differences(RAW, 12, 3,
                Map.of("retention.ms", "604800000", "min.insync.replicas", "2")::get));
    }

    @Test
    void aRegistryThatIsNotCompactedIsASeriousDifference() {
        List<TopicCheck.Difference> found = TopicCheck.differences(REGISTRY, 1, 3,
                Map.of("cleanup.policy", "delete", "min.insync.replicas", "2")::get);
        assertEquals(1, found.size());
        TopicCheck.Difference difference = found.get(0);
        assertEquals(List.of("sluice.projects", "cleanup.policy", "compact", "delete", true), List.of(difference.topic(),
                difference.setting(), difference.expected(), difference.actual(), difference.serious()));
    }

    @Test
    void aLowerMinInsyncReplicasIsASeriousDifference() {
        List<TopicCheck.Difference> found = TopicCheck.differences(RAW, 12, 3,
                Map.of("retention.ms", "604800000", "min.insync.replicas", "1")::get);
        assertEquals(1, found.size());
        assertEquals("topic sluice.transactions has min.insync.replicas=1, Sluice expects 2: a write counts as done with 1 copy, "
                + "so losing one broker can lose an event already answered 2xx; kafka-configs.sh --alter --add-config "
                + "min.insync.replicas=2 fixes it (SLUICE_TOPIC_MIN_INSYNC_REPLICAS)", found.get(0).toString());
    }

    @Test
    void fewerPartitionsAndReplicasAreNamedWithBothCounts() {
        List<TopicCheck.Difference> found = TopicCheck.differences(RAW, 4, 1,
                Map.of("retention.ms", "604800000", "min.insync.replicas", "2")::get);
        assertEquals(List.of("partitions 12 4 false", "replication.factor 3 1 true", "min.insync.replicas 2 2 true"),
                found.stream().map(d -> d.setting() + " " + d.expected() + " " + d.actual() + " " + d.serious()).toList());
    }

    @Test
    void aShorterRetentionIsAWarning() {
        List<TopicCheck.Difference> found = TopicCheck.differences(RAW, 12, 3,
                Map.of("retention.ms", "86400000", "min.insync.replicas", "2")::get);
        assertEquals(List.of("retention.ms 604800000 86400000 false"),
                found.stream().map(d -> d.setting() + " " + d.expected() + " " + d.actual() + " " + d.serious()).toList());
    }
}
