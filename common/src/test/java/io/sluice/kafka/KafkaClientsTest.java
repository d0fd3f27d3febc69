package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
