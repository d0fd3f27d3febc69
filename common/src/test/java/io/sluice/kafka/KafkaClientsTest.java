package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.sluice.config.KafkaSettings;

class KafkaClientsTest {
    private static final KafkaSettings KAFKA = KafkaSettings.at("broker-1:9092,broker-2:9092");

    @Test
    void everyClientReachesTheConfiguredBrokersUnderItsName() {
        for (Properties props : new Properties[] {KafkaClients.producerProperties(KAFKA, "sluice-x"),
                KafkaClients.consumerProperties(KAFKA, "sluice-x"), KafkaClients.adminProperties(KAFKA, "sluice-x")}) {
            assertEquals("broker-1:9092,broker-2:9092", props.get("bootstrap.servers"));
            assertEquals("sluice-x", props.get("client.id"));
        }
    }

    @Test
    void withoutANameKafkaNamesTheClient() {
        assertFalse(KafkaClients.consumerProperties(KAFKA, null).containsKey("client.id"));
        assertFalse(KafkaClients.streamsProperties(KAFKA).containsKey("client.id"));
        assertEquals("broker-1:9092,broker-2:9092", KafkaClients.streamsProperties(KAFKA).get("bootstrap.servers"));
    }

    @Test
    void aBoundedClientWaitsAtMostTheTimeoutForACallAndARequest() {
        for (Properties props : new Properties[] {KafkaClients.consumerProperties(KAFKA, "c", Duration.ofSeconds(15)),
                KafkaClients.adminProperties(KAFKA, "a", Duration.ofSeconds(15))}) {
            assertEquals("15000", props.get("default.api.timeout.ms"));
            assertEquals("15000", props.get("request.timeout.ms"));
        }
        Properties producer = KafkaClients.producerProperties(KAFKA, "p", Duration.ofSeconds(15));
        assertEquals("15000", producer.get("max.block.ms"));
        assertEquals("15000", producer.get("request.timeout.ms"));
        assertEquals("15005", producer.get("delivery.timeout.ms")); // request + Kafka's linger.ms of 5: the least it accepts
        assertFalse(producer.containsKey("default.api.timeout.ms")); // unknown to a producer, which would warn
    }

    @Test
    void aLongTimeoutKeepsKafkasRequestTimeoutAndTheGivenLinger() {
        KafkaSettings lingering = KafkaSettings.from(new io.sluice.config.Settings(java.util.Map.of(
                "SLUICE_KAFKA_BOOTSTRAP_SERVERS", "broker-1:9092", "SLUICE_KAFKA_PROPERTY_LINGER_MS", "100")));
        Properties producer = KafkaClients.producerProperties(lingering, "p", Duration.ofMinutes(2));
        assertEquals("30000", producer.get("request.timeout.ms"));
        assertEquals("30100", producer.get("delivery.timeout.ms"));
        assertEquals("120000", producer.get("max.block.ms"));
        assertEquals("120000", KafkaClients.consumerProperties(lingering, "c", Duration.ofMinutes(2)).get("default.api.timeout.ms"));
    }

    @Test
    void kafkaAcceptsTheBoundedProperties() {
        KafkaSettings local = KafkaSettings.at("127.0.0.1:1"); // resolvable: the clients resolve it when built
        Properties producer = KafkaClients.producerProperties(local, "p", Duration.ofSeconds(1));
        try (var client = new org.apache.kafka.clients.producer.KafkaProducer<>(producer,
                new org.apache.kafka.common.serialization.ByteArraySerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            client.close(Duration.ZERO);
        }
        try (var admin = org.apache.kafka.clients.admin.Admin.create(KafkaClients.adminProperties(local, "a", Duration.ofSeconds(1)))) {
            admin.close(Duration.ZERO);
        }
    }

    @Test
    void anAddressAloneKeepsTheDefaultTopics() {
        assertEquals("sluice.projects", KAFKA.topics().projects());
    }

    @Test
    void everyClientGetsTheGivenSecurityPropertiesAndEachOnlyWhatItKnows() {
        KafkaSettings secured = KafkaSettings.from(new io.sluice.config.Settings(java.util.Map.of(
                "SLUICE_KAFKA_BOOTSTRAP_SERVERS", "broker-1:9096",
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_SSL",
                "SLUICE_KAFKA_PROPERTY_COMPRESSION_TYPE", "zstd")));
        for (Properties props : new Properties[] {KafkaClients.producerProperties(secured, "p"),
                KafkaClients.consumerProperties(secured, "c"), KafkaClients.adminProperties(secured, "a"),
                KafkaClients.streamsProperties(secured)}) {
            assertEquals("SASL_SSL", props.get("security.protocol"));
            assertEquals("broker-1:9096", props.get("bootstrap.servers"));
        }
        assertEquals("zstd", KafkaClients.producerProperties(secured, "p").get("compression.type"));
        assertFalse(KafkaClients.consumerProperties(secured, "c").containsKey("compression.type"));
    }
}
