package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;

class DurableProducerPropertiesTest {
    private static Properties producer(Map<String, String> environment) {
        return EventPublisher.durableProducerProperties(KafkaSettings.from(new Settings(environment)), EventPublisher.CLIENT_ID,
                Duration.ofSeconds(5),
                Duration.ofMillis(1), 1024 * 1024, 64L * 1024 * 1024);
    }

    @Test
    void batchSizeAndCompressionAreTheGatewaysUnlessTheOperatorSetsThem() {
        Properties defaults = producer(Map.of());
        assertEquals("131072", defaults.get(ProducerConfig.BATCH_SIZE_CONFIG));
        assertEquals("lz4", defaults.get(ProducerConfig.COMPRESSION_TYPE_CONFIG));

        Properties tuned = producer(Map.of("SLUICE_KAFKA_PROPERTY_BATCH_SIZE", "65536",
                "SLUICE_KAFKA_PROPERTY_COMPRESSION_TYPE", "zstd"));
        assertEquals("65536", tuned.get(ProducerConfig.BATCH_SIZE_CONFIG));
        assertEquals("zstd", tuned.get(ProducerConfig.COMPRESSION_TYPE_CONFIG));
    }

    @Test
    void aBatchSizeTheProducersBufferCannotHoldIsRefusedAtStart() {
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> producer(Map.of("SLUICE_KAFKA_PROPERTY_BATCH_SIZE", "67108864")));
        org.junit.jupiter.api.Assertions.assertTrue(refused.getMessage().contains("SLUICE_KAFKA_PROPERTY_BATCH_SIZE"),
                refused.getMessage());
    }

    @Test
    void durabilityIsAlwaysTheGateways() {
        Properties props = producer(Map.of());
        assertEquals("all", props.get(ProducerConfig.ACKS_CONFIG));
        assertEquals("true", props.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals("1", props.get(ProducerConfig.LINGER_MS_CONFIG));
    }

    /** Kafka's default buffer (32 MiB) was half the default in-flight budget (64 MiB): sends could wait for room. */
    @Test
    void theBufferHoldsTwiceTheInFlightBudgetAndABatchPerOpenOrUnacknowledgedBatch() {
        // 2 × 64 MiB + (2 event topics × 12 partitions + outcomes) × (1 open + 5 in flight) × 128 KiB
        assertEquals("153878528", producer(Map.of()).get(ProducerConfig.BUFFER_MEMORY_CONFIG));
        assertEquals(Long.toString(2L * 256 * 1024 * 1024 + 49L * 6 * 65536),
                EventPublisher.durableProducerProperties(KafkaSettings.from(new Settings(Map.of("SLUICE_TOPIC_PARTITIONS", "24",
                        "SLUICE_KAFKA_PROPERTY_BATCH_SIZE", "65536"))), EventPublisher.CLIENT_ID, Duration.ofSeconds(5), Duration.ofMillis(1), 1024 * 1024,
                        256L * 1024 * 1024).get(ProducerConfig.BUFFER_MEMORY_CONFIG));
    }

    @Test
    void aSendNeverBlocksAndTopicMetadataIsKeptWhileIdle() {
        Properties props = producer(Map.of());
        assertEquals("0", props.get(ProducerConfig.MAX_BLOCK_MS_CONFIG));
        assertEquals(Integer.toString(Integer.MAX_VALUE), props.get(ProducerConfig.METADATA_MAX_IDLE_CONFIG));
    }

    /** send() runs on an event loop: without metadata (a topic gone, Kafka away) it fails at once, it does not wait 100 ms. */
    @Test
    void aSendWithoutMetadataFailsAtOnceInsteadOfBlockingTheCaller() {
        Properties props = producer(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1"));
        try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer = new org.apache.kafka.clients.producer.KafkaProducer<>(
                props, new org.apache.kafka.common.serialization.ByteArraySerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            int failed = 0;
            long[] millis = new long[20];
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                try {
                    producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("sluice.transactions", 0, null, new byte[10])).get();
                } catch (Exception e) {
                    failed++;
                }
                millis[i] = (System.nanoTime() - start) / 1_000_000;
            }
            assertEquals(20, failed);
            // A send blocking for metadata waits 100 ms every time; failing at once, a few ms. The median, so a
            // busy machine's pauses (class loading, scheduling) on a few sends do not decide it.
            long[] sorted = millis.clone();
            java.util.Arrays.sort(sorted);
            org.junit.jupiter.api.Assertions.assertTrue(sorted[10] < 50, "sends took " + java.util.Arrays.toString(millis) + " ms");
            producer.close(Duration.ZERO);
        }
    }

    @Test
    void theLingerAndTheRequestBothFitThePublishTimeout() {
        Properties props = EventPublisher.durableProducerProperties(KafkaSettings.from(new Settings(Map.of())), EventPublisher.CLIENT_ID,
                Duration.ofSeconds(5), Duration.ofMillis(20), 1024 * 1024, 64L * 1024 * 1024);
        assertEquals("5000", props.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        assertEquals("4970", props.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG));
    }

    @Test
    void aLingerThatLeavesNoTimeForKafkasAnswerIsRefusedNamingTheSetting() {
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> EventPublisher.durableProducerProperties(KafkaSettings.from(new Settings(Map.of())), EventPublisher.CLIENT_ID,
                        Duration.ofSeconds(5), Duration.ofSeconds(5), 1024 * 1024, 64L * 1024 * 1024));
        assertEquals("SLUICE_GATEWAY_PRODUCER_LINGER (5000 ms) leaves no time for Kafka's answer within SLUICE_GATEWAY_PUBLISH_TIMEOUT"
                + " (5000 ms): lower the one or raise the other", refused.getMessage());
    }
}
