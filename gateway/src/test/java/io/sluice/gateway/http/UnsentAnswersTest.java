package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;

/** Answers count from when they are written until the socket has taken them, per connection and in all. */
class UnsentAnswersTest {
    private final AtomicLong total = new AtomicLong();
    private final UnsentAnswers.Total budget = new UnsentAnswers.Total(total, 150);
    private final UnsentAnswers unsent = new UnsentAnswers(budget);
    private final List<Object> events = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(unsent, new ChannelInboundHandlerAdapter() {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            events.add(event);
        }
    });

    @Test
    void answersWrittenAndNotSentCountUntilTheSocketTakesThem() {
        channel.write(Unpooled.wrappedBuffer(new byte[100]));
        channel.write(Unpooled.wrappedBuffer(new byte[100]));
        assertTrue(unsent.any());
        assertEquals(200, total.get());
        assertTrue(budget.overBudget(), "200 bytes unsent against a budget of 150");

        channel.flush(); // the embedded channel's "socket" takes everything flushed
        assertFalse(unsent.any());
        assertEquals(0, total.get());
        assertFalse(budget.overBudget());
        assertEquals(List.of(UnsentAnswers.DRAINED), events, "drained is told once, when the last byte went out");
        channel.outboundMessages().forEach(ReferenceCountUtil::release);
    }

    @Test
    void answersOfAConnectionThatClosesStopCounting() {
        channel.write(Unpooled.wrappedBuffer(new byte[100]));
        assertEquals(100, total.get());
        channel.close();
        assertEquals(0, total.get());
    }
}
