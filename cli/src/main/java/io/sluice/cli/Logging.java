package io.sluice.cli;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;

import io.sluice.cli.LogSettings.Format;
import io.sluice.cli.LogSettings.LogConfig;

/**
 * Puts a {@link LogConfig} into Logback: one appender (stderr, as containers expect, or the file of
 * {@code ./sluice dev}), text lines or one JSON object per line, levels per logger. Replaces whatever
 * was configured before, so it can run once the command line is known.
 */
public final class Logging {
    /** The same line slf4j-simple wrote before: date, thread, level, logger, message. */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} [%thread] %level %logger - %msg%n";

    private Logging() {
    }

    /** Applies {@code config} to the running Logback; does nothing when another SLF4J backend is bound. */
    public static void apply(LogConfig config) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            apply(context, config);
        }
    }

    static void apply(LoggerContext context, LogConfig config) {
        context.reset();
        // Kafka's threads catch what kills them and only log it: a fatal error among those halts the process.
        context.addTurboFilter(new FatalErrorLogFilter());
        OutputStreamAppender<ILoggingEvent> appender;
        if (config.file() == null) {
            ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
            console.setTarget("System.err");
            appender = console;
        } else {
            FileAppender<ILoggingEvent> file = new FileAppender<>();
            file.setFile(config.file().toString());
            file.setAppend(true);
            appender = file;
        }
        appender.setContext(context);
        appender.setName("sluice");
        appender.setEncoder(encoder(context, config.format()));
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(config.rootLevel()));
        root.addAppender(appender);
        config.levels().forEach((logger, level) -> context.getLogger(logger).setLevel(Level.toLevel(level)));
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, Format format) {
        if (format == Format.JSON) {
            // One object per line: time, level, thread, logger, the formatted message and any exception;
            // not the raw arguments (already in the message) nor logback's own context bookkeeping.
            JsonEncoder json = new JsonEncoder();
            json.setContext(context);
            json.setWithSequenceNumber(false);
            json.setWithNanoseconds(false);
            json.setWithContext(false);
            json.setWithMessage(false);
            json.setWithArguments(false);
            json.setWithFormattedMessage(true);
            json.start();
            return json;
        }
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(TEXT_PATTERN);
        text.start();
        return text;
    }
}
