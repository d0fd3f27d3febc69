package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

class CliKafkaTimeoutTest {
    @Test
    void withoutTheSettingTheCommandLineWaits15SecondsForKafka() {
        assertEquals(Duration.ofSeconds(15), CliKafkaTimeout.from(new Settings(Map.of())));
    }

    @Test
    void theSettingIsADuration() {
        assertEquals(Duration.ofMinutes(2), CliKafkaTimeout.from(new Settings(Map.of("SLUICE_CLI_KAFKA_TIMEOUT", "2m"))));
    }

    @Test
    void lessThanASecondIsRefusedNamingTheSetting() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> CliKafkaTimeout.from(new Settings(Map.of("SLUICE_CLI_KAFKA_TIMEOUT", "500ms"))));
        assertEquals("SLUICE_CLI_KAFKA_TIMEOUT=500ms is shorter than 1s: Kafka is given at least a second to answer", error.getMessage());
    }
}
