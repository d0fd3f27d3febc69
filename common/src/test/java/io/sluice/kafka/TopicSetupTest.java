package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;

/** Failures found before any broker is asked: the client cannot even be built from the properties. */
class TopicSetupTest {
    @Test
    void aJaasConfigThatDoesNotParseIsNamedWithoutItsSecret() {
        KafkaSettings kafka = KafkaSettings.from(new Settings(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1",
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512",
                "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"sluice\" password=\"hunter2\"")));
        var failure = assertThrows(KafkaStartupFailure.class, () -> TopicSetup.ensureTopics(kafka));
        assertTrue(failure.getMessage().startsWith("cannot create a Kafka client: Failed to create new KafkaAdminClient: "),
                failure.getMessage());
        assertFalse(failure.getMessage().contains("hunter2"), failure.getMessage());
    }

    @Test
    void theMskIamPropertiesWithoutTheLibraryNameTheMissingClass() {
        var error = assertThrows(IllegalArgumentException.class, () -> KafkaSettings.from(new Settings(Map.of(
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_SSL",
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "AWS_MSK_IAM",
                "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG", "software.amazon.msk.auth.iam.IAMLoginModule required;",
                "SLUICE_KAFKA_PROPERTY_SASL_CLIENT_CALLBACK_HANDLER_CLASS",
                "software.amazon.msk.auth.iam.IAMClientCallbackHandler"))));
        assertEquals("invalid Kafka client properties: SLUICE_KAFKA_PROPERTY_SASL_CLIENT_CALLBACK_HANDLER_CLASS: Invalid value "
                + "software.amazon.msk.auth.iam.IAMClientCallbackHandler for configuration sasl.client.callback.handler.class: "
                + "Class software.amazon.msk.auth.iam.IAMClientCallbackHandler could not be found.", error.getMessage());
    }
}
