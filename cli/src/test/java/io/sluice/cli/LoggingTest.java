package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;

import io.sluice.config.Settings;

/** Logback as {@link Logging} sets it up, in a context of its own (the tests' global one stays at warn). */
class LoggingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<String> logged(Map<String, String> env, String... loggers) throws Exception {
        Path file = dir.resolve("sluice.log");
        LoggerContext context = context();
        Logging.apply(context, LogSettings.from(new Settings(env), "gateway", file));
        for (String name : loggers) {
            Logger logger = context.getLogger(name);
            logger.debug("debug from {}", name);
            logger.info("info from {}", name);
        }
        context.stop(); // flushes and closes the file
        return Files.readAllLines(file);
    }

    /** A context of its own, with the MDC the global one gets from SLF4J's binding. */
    private static LoggerContext context() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        return context;
    }

    @Test
    void jsonWritesOneObjectPerLineWithTimeLevelThreadLoggerAndMessage() throws Exception {
        List<String> lines = logged(Map.of("SLUICE_LOG_FORMAT", "json"), "io.sluice.gateway.Gateway");
        assertEquals(1, lines.size(), lines.toString());
        JsonNode line = JSON.readTree(lines.get(0));
        assertEquals("INFO", line.get("level").asText());
        assertEquals("io.sluice.gateway.Gateway", line.get("loggerName").asText());
        assertEquals("info from io.sluice.gateway.Gateway", line.get("formattedMessage").asText());
        assertEquals(Thread.currentThread().getName(), line.get("threadName").asText());
        assertTrue(line.get("timestamp").asLong() > 0, lines.get(0));
        assertFalse(line.has("arguments") || line.has("message") || line.has("context"), lines.get(0));
    }

    @Test
    void textWritesTheLineSlf4jSimpleWrote() throws Exception {
        List<String> lines = logged(Map.of(), "io.sluice.gateway.Gateway");
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) \\[[^]]+] "
                + "INFO io\\.sluice\\.gateway\\.Gateway - info from io\\.sluice\\.gateway\\.Gateway"), lines.get(0));
    }

    @Test
    void aPackagesLevelAppliesToItsLoggersOnly() throws Exception {
        List<String> lines = logged(Map.of("SLUICE_LOG_LEVELS", "io.sluice.gateway=debug"),
                "io.sluice.gateway.http.Handler", "io.sluice.processor.Processor");
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith(" DEBUG io.sluice.gateway.http.Handler - debug from io.sluice.gateway.http.Handler"), lines.get(0));
        assertTrue(lines.get(2).endsWith(" INFO io.sluice.processor.Processor - info from io.sluice.processor.Processor"), lines.get(2));
    }

    @Test
    void kafkasInfoIsHiddenAndItsWarningsShown() throws Exception {
        Path file = dir.resolve("kafka.log");
        LoggerContext context = context();
        Logging.apply(context, LogSettings.from(new Settings(Map.of()), "gateway", file));
        context.getLogger("org.apache.kafka.clients.producer.KafkaProducer").info("chatty");
        context.getLogger("org.apache.kafka.clients.producer.KafkaProducer").warn("worth seeing");
        context.stop();
        List<String> lines = Files.readAllLines(file);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith(" - worth seeing"), lines.get(0));
    }
}
