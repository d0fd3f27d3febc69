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
        return EventPublisher.durableProducerProperties(KafkaSettings.from(new Settings(environment)), Duration.ofSeconds(5),
                Duration.ofMillis(1), 1024 * 1024);
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
}
