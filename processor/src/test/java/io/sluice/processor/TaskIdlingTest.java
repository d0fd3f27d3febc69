package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.ProcessorTopology;

/**
 * Kafka Streams' max.task.idle.ms only orders the records of a task's several input partitions; every
 * task here reads one, so the processor turns it off, and an idle task is not checked partition by
 * partition on every pass of its thread.
 */
class TaskIdlingTest {
    @Test
    void everySubtopologyReadsOneTopicSoEachTaskReadsOnePartition() {
        TopologyDescription topology = ProcessorTopology.build(Topics.from(new Settings(Map.of())), Duration.ofHours(24)).describe();
        for (TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
            long sources = subtopology.nodes().stream().filter(node -> node instanceof TopologyDescription.Source)
                    .mapToLong(node -> ((TopologyDescription.Source) node).topicSet().size()).sum();
            assertEquals(1, sources, "subtopology " + subtopology.id() + " reads " + sources + " topics");
        }
    }

    @Test
    void noTaskWaitsForEmptyPartitions(@TempDir Path stateDir) {
        ProcessorConfig config = ProcessorConfig.from(new Settings(Map.of(ProcessorConfig.STATE_DIR.name(), stateDir.toString())));
        assertEquals(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED,
                ProcessorService.streamsProperties(config, new DeadLetterCounts()).get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG));
    }
}
