package io.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaClientProperties.Client;

class KafkaClientPropertiesTest {
    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"sluice\" password=\"s3cr3t-pw\";";

    @TempDir
    Path dir;

    private static KafkaClientProperties from(Map<String, String> values) {
        return KafkaClientProperties.from(new Settings(values));
    }

    @Test
    void aVariableNamesItsPropertyUpperCasedWithDotsAsUnderscores() {
        var props = from(Map.of("SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_SSL",
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512", "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG", JAAS));
        assertEquals(Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", JAAS),
                props.forClient(Client.ADMIN));
    }

    @Test
    void aPropertyWithUnderscoresInItsNameIsFoundByItsVariable() {
        var props = from(Map.of("SLUICE_KAFKA_PROPERTY_RACK_AWARE_ASSIGNMENT_TRAFFIC_COST", "3"));
        assertEquals("3", props.get("rack.aware.assignment.traffic_cost"));
    }

    @Test
    void noTwoKafkaPropertiesShareAVariableName() {
        Set<String> variables = new HashSet<>();
        for (String name : KafkaClientProperties.knownNames()) {
            assertTrue(variables.add(KafkaClientProperties.variableName(name)), name);
        }
    }

    @Test
    void eachClientTakesOnlyThePropertiesItKnows() {
        var props = from(Map.of("SLUICE_KAFKA_PROPERTY_COMPRESSION_TYPE", "zstd",
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_SSL", "SLUICE_KAFKA_PROPERTY_NUM_STANDBY_REPLICAS", "1"));
        assertEquals(Map.of("security.protocol", "SASL_SSL"), props.forClient(Client.CONSUMER));
        assertEquals(Map.of("security.protocol", "SASL_SSL", "compression.type", "zstd"), props.forClient(Client.PRODUCER));
        assertEquals(Map.of("security.protocol", "SASL_SSL", "compression.type", "zstd", "num.standby.replicas", "1"),
                props.forClient(Client.STREAMS));
    }

    @Test
    void aPropertiesFileIsReadAndAVariableWinsOverIt() throws Exception {
        Path file = dir.resolve("kafka.properties");
        Files.writeString(file, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n");
        var props = from(Map.of("SLUICE_KAFKA_PROPERTIES_FILE", file.toString(),
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512"));
        assertEquals(Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512"),
                props.forClient(Client.PRODUCER));
        assertEquals(file.toString(), props.origin("security.protocol"));
        assertEquals("SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", props.origin("sasl.mechanism"));
    }

    @Test
    void aMissingPropertiesFileIsAnErrorNamingTheSetting() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> from(Map.of("SLUICE_KAFKA_PROPERTIES_FILE", dir.resolve("absent.properties").toString())));
        assertTrue(error.getMessage().contains("SLUICE_KAFKA_PROPERTIES_FILE=" + dir.resolve("absent.properties")
                + ": cannot read it"), error.getMessage());
    }

    @Test
    void anUnknownVariableIsAnErrorNamingIt() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> from(Map.of("SLUICE_KAFKA_PROPERTY_SASL_JASS_CONFIG", JAAS)));
        assertTrue(error.getMessage().startsWith("invalid Kafka client properties: SLUICE_KAFKA_PROPERTY_SASL_JASS_CONFIG: "
                + "no Kafka client property is called sasl.jass.config"), error.getMessage());
        assertFalse(error.getMessage().contains("s3cr3t"), error.getMessage());
    }

    @Test
    void anUnknownNameInTheFileIsAnErrorNamingItAndTheFile() throws Exception {
        Path file = dir.resolve("kafka.properties");
        Files.writeString(file, "securty.protocol=SSL\n");
        var error = assertThrows(IllegalArgumentException.class,
                () -> from(Map.of("SLUICE_KAFKA_PROPERTIES_FILE", file.toString())));
        assertEquals("invalid Kafka client properties: " + file + " (securty.protocol): no Kafka client property is called "
                + "securty.protocol", error.getMessage());
    }

    @Test
    void anInvalidValueIsAnErrorNamingThePropertyAndWhatItTakes() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> from(Map.of("SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_TLS")));
        assertTrue(error.getMessage().startsWith("invalid Kafka client properties: SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL: "
                + "Invalid value SASL_TLS for configuration security.protocol: String must be one of"), error.getMessage());
    }

    @Test
    void aValueOfTheWrongTypeIsAnErrorNamingTheProperty() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> from(Map.of("SLUICE_KAFKA_PROPERTY_REQUEST_TIMEOUT_MS", "30s")));
        assertTrue(error.getMessage().contains("SLUICE_KAFKA_PROPERTY_REQUEST_TIMEOUT_MS: Invalid value 30s for configuration "
                + "request.timeout.ms"), error.getMessage());
    }

    @Test
    void everyProblemIsNamedAtOnce() {
        var error = assertThrows(IllegalArgumentException.class, () -> from(Map.of(
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_TLS", "SLUICE_KAFKA_PROPERTY_SASL_MECHANISMS", "PLAIN")));
        assertTrue(error.getMessage().contains("SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL")
                && error.getMessage().contains("SLUICE_KAFKA_PROPERTY_SASL_MECHANISMS"), error.getMessage());
    }

    @Test
    void whatSluiceSetsItselfCannotBeChanged() {
        var error = assertThrows(IllegalArgumentException.class, () -> from(Map.of("SLUICE_KAFKA_PROPERTY_ACKS", "1")));
        assertTrue(error.getMessage().startsWith("invalid Kafka client properties: SLUICE_KAFKA_PROPERTY_ACKS: Sluice sets acks "
                + "itself"), error.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> from(Map.of("SLUICE_KAFKA_PROPERTY_BOOTSTRAP_SERVERS", "elsewhere:9092")));
    }

    @Test
    void secretsAreHiddenWhenPrinted() {
        var props = from(Map.of("SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_SSL",
                "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG", JAAS, "SLUICE_KAFKA_PROPERTY_SSL_TRUSTSTORE_PASSWORD", "tspw",
                "SLUICE_KAFKA_PROPERTY_SSL_KEY_PASSWORD", "kpw"));
        assertEquals("{sasl.jaas.config=[hidden], security.protocol=SASL_SSL, ssl.key.password=[hidden], "
                + "ssl.truststore.password=[hidden]}", props.toString());
        var kafka = new KafkaSettings("b:9092", Topics.from(new Settings(Map.of())), props);
        assertFalse(kafka.toString().contains("s3cr3t") || kafka.toString().contains("tspw"), kafka.toString());
    }

    @Test
    void kafkasOwnConfigurationLogHidesTheJaasConfig() {
        Properties props = new Properties();
        props.put("bootstrap.servers", "b:9092");
        props.put("sasl.jaas.config", JAAS);
        // AbstractConfig logs values() when a client starts: PASSWORD types print as [hidden].
        assertEquals("[hidden]", new AdminClientConfig(props).values().get("sasl.jaas.config").toString());
    }

    @Test
    void theSaslUserIsReadFromTheJaasConfig() {
        assertEquals("sluice", from(Map.of("SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG", JAAS)).saslUser());
        assertNull(KafkaClientProperties.NONE.saslUser());
    }
}
