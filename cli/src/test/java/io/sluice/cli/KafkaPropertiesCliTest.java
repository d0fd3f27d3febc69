package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

/** Kafka client properties are checked before any Kafka is asked: a wrong one is one line naming it. */
class KafkaPropertiesCliTest {
    @Test
    void anInvalidValueStopsTheCommandNamingTheVariableAndTheProperty() {
        CliRunner.Result result = CliRunner.run(new Settings(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1",
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_TLS")), "projects", "list");
        assertEquals(1, result.exitCode());
        assertEquals("sluice: invalid Kafka client properties: SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL: Invalid value SASL_TLS "
                + "for configuration security.protocol: String must be one of (case insensitive): SASL_SSL, PLAINTEXT, SSL, "
                + "SASL_PLAINTEXT\n", result.err());
    }

    @Test
    void anUnknownPropertyStopsTheCommandNamingIt() {
        CliRunner.Result result = CliRunner.run(new Settings(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1",
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISMS", "PLAIN")), "projects", "list");
        assertEquals(1, result.exitCode());
        assertEquals("sluice: invalid Kafka client properties: SLUICE_KAFKA_PROPERTY_SASL_MECHANISMS: no Kafka client property is "
                + "called sasl.mechanisms (the variable is SLUICE_KAFKA_PROPERTY_ and the property's name upper-cased, dots as "
                + "underscores)\n", result.err());
    }
}
