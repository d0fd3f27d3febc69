package io.sluice.cli;

import java.util.function.Consumer;

import org.slf4j.Marker;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;

import io.sluice.fatal.FatalErrors;

/**
 * Halts the process when a log call carries a fatal error ({@link FatalErrors}): Kafka's client
 * threads ({@code KafkaThread}) have uncaught-exception handlers of their own, which only log what
 * killed the thread, so the default handler never sees an {@code OutOfMemoryError} there, and
 * a producer or consumer would be left dead in a running server. Looks at every log call at any
 * level, before the level is checked, and never filters one out.
 */
final class FatalErrorLogFilter extends TurboFilter {
    private final Consumer<Throwable> haltIfFatal;

    FatalErrorLogFilter() {
        this(FatalErrors::haltIfFatal);
    }

    FatalErrorLogFilter(Consumer<Throwable> haltIfFatal) {
        this.haltIfFatal = haltIfFatal;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable thrown) {
        if (thrown != null) {
            haltIfFatal.accept(thrown);
        } else if (params != null && params.length > 0 && params[params.length - 1] instanceof Throwable last) {
            haltIfFatal.accept(last);
        }
        return FilterReply.NEUTRAL;
    }
}
