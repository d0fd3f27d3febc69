package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;

/**
 * A stream thread's fetch waits at the broker for a fuller batch, up to SLUICE_PROCESSOR_FETCH_WAIT:
 * read from the configurations Kafka Streams itself derives for its consumers.
 */
class StreamThreadFetchTest {

    private static Map<String, Object> mainConsumer(Path stateDir, Map<String, String> values) {
        return new StreamsConfig(StreamsSessionTimeoutTest.streamsProperties(stateDir, values))
                .getMainConsumerConfigs("sluice-processor", "sluice-processor-StreamThread-1-consumer", 0);
    }

    @Test
    void aStreamThreadsFetchWaitsUpTo50msFor64KiB(@TempDir Path stateDir) {
        Map<String, Object> consumer = mainConsumer(stateDir, Map.of());
        assertEquals(50, consumer.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
        assertEquals(65536, consumer.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG));
    }

    @Test
    void theWaitIsASetting(@TempDir Path stateDir) {
        assertEquals(200, mainConsumer(stateDir, Map.of("SLUICE_PROCESSOR_FETCH_WAIT", "200ms"))
                .get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
    }

    /** Kafka's defaults, as before the setting: a zero fetch.max.wait.ms would spin an idle consumer against the broker. */
    @Test
    void noWaitKeepsKafkasDefaults(@TempDir Path stateDir) {
        Map<String, Object> consumer = mainConsumer(stateDir, Map.of("SLUICE_PROCESSOR_FETCH_WAIT", "0ms"));
        assertNull(consumer.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), "the consumer's default, 500 ms");
        assertNull(consumer.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), "the consumer's default, 1 byte");
    }

    /** Restoring a store after a move reads as fast as it can: only the stream threads' own consumer waits. */
    @Test
    void theRestoreConsumerFetchesAsSoonAsThereIsARecord(@TempDir Path stateDir) {
        Map<String, Object> restore = new StreamsConfig(StreamsSessionTimeoutTest.streamsProperties(stateDir, Map.of()))
                .getRestoreConsumerConfigs("sluice-processor-StreamThread-1-restore-consumer");
        assertNull(restore.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), "the consumer's default, 1 byte");
        assertNull(restore.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
    }

    /** As with max.task.idle.ms, the operator's own fetch properties win: never overridden in silence. */
    @Test
    void anOperatorsOwnFetchPropertiesAreKept(@TempDir Path stateDir) {
        Map<String, Object> consumer = mainConsumer(stateDir, Map.of("SLUICE_KAFKA_PROPERTY_FETCH_MIN_BYTES", "1"));
        assertEquals("1", String.valueOf(consumer.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)));
        assertNull(consumer.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), "the consumer's default, 500 ms");
    }

    @Test
    void aWaitUnder10msIsRefused(@TempDir Path stateDir) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ProcessorConfig.from(
                new Settings(Map.of(ProcessorConfig.STATE_DIR.name(), stateDir.toString(), "SLUICE_PROCESSOR_FETCH_WAIT", "1ms"))));
        assertTrue(refused.getMessage().contains("SLUICE_PROCESSOR_FETCH_WAIT"), refused.getMessage());
    }

    @Test
    void aWaitOverASecondIsRefusedNamingTheSetting(@TempDir Path stateDir) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ProcessorConfig.from(
                new Settings(Map.of(ProcessorConfig.STATE_DIR.name(), stateDir.toString(), "SLUICE_PROCESSOR_FETCH_WAIT", "2s"))));
        assertTrue(refused.getMessage().contains("SLUICE_PROCESSOR_FETCH_WAIT"), refused.getMessage());
    }
}
