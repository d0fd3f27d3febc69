package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.processor.topology.ProcessorTopology;

/**
 * Tasks never wait for empty input partitions ({@code max.task.idle.ms=-1}): with one input
 * topic per subtopology a task has one partition, so there is nothing to wait for, and Kafka
 * Streams' check of it costs a few percent of the stream threads on every pass.
 */
class TaskIdleTest {

    @Test
    void tasksDoNotWaitForEmptyPartitions(@TempDir Path stateDir) {
        assertEquals(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED,
                StreamsSessionTimeoutTest.streamsProperties(stateDir, Map.of()).get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG));
    }

    @Test
    void anOperatorsOwnTaskIdleIsKept(@TempDir Path stateDir) {
        assertEquals("250", StreamsSessionTimeoutTest.streamsProperties(stateDir, Map.of("SLUICE_KAFKA_PROPERTY_MAX_TASK_IDLE_MS", "250"))
                .get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG));
    }

    /** Why waiting is never needed: a subtopology reading two topics (a join, a merge) would make its tasks' order matter. */
    @Test
    void everySubtopologyReadsOneTopic() {
        TopologyDescription description = ProcessorTopology.build(Topics.from(new Settings(Map.of())), Duration.ofHours(24)).describe();
        for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
            Set<String> sources = new TreeSet<>();
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    sources.addAll(source.topicSet());
                }
            }
            assertEquals(1, sources.size(), "subtopology " + subtopology.id() + " reads " + sources);
        }
    }
}
