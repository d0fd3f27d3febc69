package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.gateway.ops.GatewayMetrics;

/**
 * Whether a connection is read follows whether its client takes its answers: not while its own
 * unsent answers are above the high-water mark, nor while it has any and all connections' unsent
 * answers are over their budget; read again once they are taken.
 */
class ReadingBackPressureTest {
    private final GatewayMetrics metrics = new GatewayMetrics();
    private final GatewayServices services = new GatewayServices(null, null, null, null, null, metrics, Clock.systemUTC(),
            new AtomicBoolean(), null, null);
    private final AtomicLong allUnsent = new AtomicLong();
    private final UnsentAnswers.Total total = new UnsentAnswers.Total(allUnsent, 1_000);
    private final UnsentAnswers unsent = new UnsentAnswers(total);
    private final IngestPath path = new IngestPath(services);
    private final EmbeddedChannel channel = new EmbeddedChannel(unsent,
            new IngestHandler(services, path, unsent, total));

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
        metrics.close();
    }

    @Test
    void aConnectionAboveItsHighWaterMarkIsNotReadUntilItsAnswersAreTaken() {
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(10, 20));
        channel.write(Unpooled.wrappedBuffer(new byte[30])); // its client reads nothing
        assertFalse(channel.config().isAutoRead());

        channel.flush(); // taken by the socket
        assertTrue(channel.config().isAutoRead());
    }

    @Test
    void whileAllUnsentAnswersAreOverBudgetAConnectionWithAnyIsNotReadUntilTheyAreTaken() {
        allUnsent.set(2_000); // other connections' clients read nothing
        channel.pipeline().fireChannelWritabilityChanged();
        assertTrue(channel.config().isAutoRead(), "a connection with no unsent answer is still read");

        channel.write(Unpooled.wrappedBuffer(new byte[5])); // well below its own high-water mark
        channel.pipeline().fireChannelWritabilityChanged();
        assertFalse(channel.config().isAutoRead());

        channel.flush(); // its answer taken: drained
        assertTrue(channel.config().isAutoRead());
    }
}
