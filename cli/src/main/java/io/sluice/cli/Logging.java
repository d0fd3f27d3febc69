package io.sluice.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sets up slf4j-simple before the first logger exists. {@code gateway} and {@code processor} log to
 * stderr as containers expect; one-shot commands log only warnings; {@code dev} logs everything to
 * a file ({@link #toFile}) so the terminal shows only progress. A property already set wins.
 */
public final class Logging {
    private Logging() {
    }

    public static void configure(String command) {
        set("org.slf4j.simpleLogger.showDateTime", "true");
        set("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        // Kafka's own INFO logs are thousands of lines per start; its warnings still show.
        set("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
        set("org.slf4j.simpleLogger.log.kafka", "warn");
        set("org.slf4j.simpleLogger.log.state.change.logger", "warn");
        set("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error");
        switch (command) {
            case "gateway", "processor" -> set("org.slf4j.simpleLogger.defaultLogLevel", "info");
            default -> set("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }

    /** Everything from INFO up into {@code logs/sluice.log}; call before {@link #configure}. */
    public static void toFile(Path logs) {
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + logs, e);
        }
        set("org.slf4j.simpleLogger.logFile", logs.resolve("sluice.log").toString());
        set("org.slf4j.simpleLogger.defaultLogLevel", "info");
    }

    private static void set(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
