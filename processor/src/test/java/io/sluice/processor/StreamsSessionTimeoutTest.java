package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.processor.topology.DeadLetterCounts;

/** The session timeout the readiness check's failure window is sized by is the one the stream threads' consumers get. */
class StreamsSessionTimeoutTest {

    /** The processor's Streams properties with these settings (TaskIdleTest reads them too). */
    static Properties streamsProperties(Path stateDir, Map<String, String> values) {
        return ProcessorService.streamsProperties(ProcessorConfig.from(
                new Settings(Map.of(ProcessorConfig.STATE_DIR.name(), stateDir.toString())).with(values)), new DeadLetterCounts());
    }

    @Test
    void withoutASettingItIsTheConsumersDefault(@TempDir Path stateDir) {
        assertEquals(Duration.ofSeconds(45), ProcessorService.sessionTimeout(streamsProperties(stateDir, Map.of())));
    }

    @Test
    void theKafkaPropertySettingIsRead(@TempDir Path stateDir) {
        assertEquals(Duration.ofMinutes(3), ProcessorService.sessionTimeout(streamsProperties(stateDir,
                Map.of("SLUICE_KAFKA_PROPERTY_SESSION_TIMEOUT_MS", "180000"))));
    }

    @Test
    void theMainConsumersOwnSettingComesFirst() {
        Properties props = new Properties();
        props.put("session.timeout.ms", "60000");
        props.put("consumer.session.timeout.ms", "90000");
        props.put("main.consumer.session.timeout.ms", "120000");
        assertEquals(Duration.ofMinutes(2), ProcessorService.sessionTimeout(props));
        props.remove("main.consumer.session.timeout.ms");
        assertEquals(Duration.ofSeconds(90), ProcessorService.sessionTimeout(props));
    }
}
