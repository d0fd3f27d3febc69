package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;

class FatalErrorLogFilterTest {
    private final List<Throwable> seen = new ArrayList<>();
    private final FatalErrorLogFilter filter = new FatalErrorLogFilter(seen::add);
    private final Logger kafkaThread = new LoggerContext().getLogger("org.apache.kafka.common.utils.KafkaThread");

    @Test
    void whatKafkaThreadsHandlerLogsReachesTheHalt() {
        OutOfMemoryError error = new OutOfMemoryError("Java heap space");
        // KafkaThread's handler: log.error("Uncaught exception in thread '{}':", name, e)
        FilterReply reply = filter.decide(null, kafkaThread, Level.ERROR, "Uncaught exception in thread '{}':",
                new Object[] {"kafka-producer-network-thread", error}, null);
        assertEquals(List.of(error), seen);
        assertEquals(FilterReply.NEUTRAL, reply);
    }

    @Test
    void aThrowableGivenApartReachesTheHalt() {
        OutOfMemoryError error = new OutOfMemoryError("Direct buffer memory");
        filter.decide(null, kafkaThread, Level.WARN, "failed", null, error);
        assertEquals(List.of(error), seen);
    }

    @Test
    void aLogCallWithoutThrowableIsLetThrough() {
        assertEquals(FilterReply.NEUTRAL, filter.decide(null, kafkaThread, Level.INFO, "hello {}", new Object[] {"x"}, null));
        assertEquals(List.of(), seen);
    }

    @Test
    void theServersLoggingHasTheFilter() {
        LoggerContext context = new LoggerContext();
        Logging.apply(context, LogSettings.from(new io.sluice.config.Settings(java.util.Map.of()), "gateway", null));
        assertEquals(1, context.getTurboFilterList().stream().filter(FatalErrorLogFilter.class::isInstance).count());
    }
}
