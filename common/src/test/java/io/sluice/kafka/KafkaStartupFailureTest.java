package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;

class KafkaStartupFailureTest {
    private static final KafkaSettings SECURED = KafkaSettings.from(new Settings(Map.of(
            "SLUICE_KAFKA_BOOTSTRAP_SERVERS", "kafka:9096",
            "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_SSL",
            "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512",
            "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG",
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"sluice\" password=\"pw-42\";")));

    @Test
    void refusedCredentialsNameTheUserAndTheMechanismButNotThePassword() {
        var refused = new SaslAuthenticationException("Authentication failed during authentication due to invalid credentials "
                + "with SASL mechanism SCRAM-SHA-512");
        KafkaStartupFailure failure = KafkaStartupFailure.of("cannot create Sluice's topics", new ExecutionException(refused),
                SECURED, 30);
        assertEquals("cannot create Sluice's topics: authentication failed at Kafka at kafka:9096 for user 'sluice' with SASL "
                + "mechanism SCRAM-SHA-512 over SASL_SSL: Authentication failed during authentication due to invalid credentials "
                + "with SASL mechanism SCRAM-SHA-512. Check sasl.jaas.config (SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG) and "
                + "sasl.mechanism (SLUICE_KAFKA_PROPERTY_SASL_MECHANISM)", failure.getMessage());
        assertSame(refused, failure.getCause());
        assertFalse(failure.getMessage().contains("pw-42"));
    }

    @Test
    void noAnswerNamesTheWaitAndTheSecurityProtocol() {
        KafkaStartupFailure failure = KafkaStartupFailure.of("cannot create Sluice's topics",
                new ExecutionException(new TimeoutException("Timed out waiting for a node assignment.")), SECURED, 30);
        assertEquals("cannot create Sluice's topics: Kafka at kafka:9096 did not answer within 30 s. Check that it is reachable, "
                + "and that security.protocol (SASL_SSL) is what its listener expects", failure.getMessage());
    }

    @Test
    void aClientThatCannotBeBuiltSaysWhy() {
        KafkaStartupFailure failure = KafkaStartupFailure.of("cannot create a Kafka client",
                new KafkaException("Failed to create new KafkaAdminClient",
                        new IllegalArgumentException("Value not specified for key 'password' in JAAS config")), SECURED, 30);
        assertEquals("cannot create a Kafka client: Failed to create new KafkaAdminClient: Value not specified for key 'password' "
                + "in JAAS config", failure.getMessage());
    }

    @Test
    void aFailedTlsHandshakeIsNotCalledARefusedLogin() {
        var handshake = new org.apache.kafka.common.errors.SslAuthenticationException("SSL handshake failed",
                new javax.net.ssl.SSLHandshakeException("PKIX path building failed"));
        KafkaStartupFailure failure = KafkaStartupFailure.of("cannot create Sluice's topics", new ExecutionException(handshake),
                SECURED, 30);
        assertEquals("cannot create Sluice's topics: the TLS handshake with Kafka at kafka:9096 failed: SSL handshake failed: "
                + "PKIX path building failed. Check that ssl.truststore.* (not set) trusts the broker's certificate, and that the "
                + "certificate names the address in SLUICE_KAFKA_BOOTSTRAP_SERVERS", failure.getMessage());
    }
}
