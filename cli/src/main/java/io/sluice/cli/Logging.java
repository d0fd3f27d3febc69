package io.sluice.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.sluice.config.Settings;
import io.sluice.stack.StackConfig;

/**
 * Sets up slf4j-simple before the first logger exists. {@code dev} logs to
 * {@code .sluice/logs/sluice.log} so the terminal shows only progress; {@code gateway} and
 * {@code processor} log to stderr as containers expect; one-shot commands log only warnings.
 */
final class Logging {
    private Logging() {
    }

    static void configure(String command, Settings settings) {
        set("org.slf4j.simpleLogger.showDateTime", "true");
        set("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        // Kafka's own INFO logs are thousands of lines per start; its warnings still show.
        set("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
        set("org.slf4j.simpleLogger.log.kafka", "warn");
        set("org.slf4j.simpleLogger.log.state.change.logger", "warn");
        set("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error");
        switch (command) {
            case "dev" -> {
                Path logs = StackConfig.from(settings).logs();
                try {
                    Files.createDirectories(logs);
                } catch (IOException e) {
                    throw new IllegalStateException("cannot create " + logs, e);
                }
                set("org.slf4j.simpleLogger.logFile", logs.resolve("sluice.log").toString());
                set("org.slf4j.simpleLogger.defaultLogLevel", "info");
            }
            case "gateway", "processor" -> set("org.slf4j.simpleLogger.defaultLogLevel", "info");
            default -> set("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }

    private static void set(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
