package io.sluice.gateway.http;

import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes written to a connection that its socket has not taken yet (answers its client
 * has not read), for this connection and for all of them together. First in the pipeline, so it
 * sees the bytes as they go out. When this connection's count falls to 0, it tells the handlers
 * with {@link #DRAINED}: a connection held because all unsent answers together passed their
 * budget may be read again.
 */
public final class UnsentAnswers extends ChannelOutboundHandlerAdapter {
    /** User event: every byte written to this connection has been taken by its socket. */
    static final Object DRAINED = new Object();

    /** The unsent bytes of all connections, and their budget. Shared by all connections. */
    public static final class Total {
        /**
         * Unsent answers of all connections beyond which a connection with any unsent answer is
         * not read: 16 MiB, some 40,000 answers.
         */
        public static final long BUDGET_BYTES = 16L * 1024 * 1024;
        private final AtomicLong bytes;
        private final long budget;

        /** @param bytes the gauge of the unsent bytes of all connections */
        public Total(AtomicLong bytes, long budget) {
            this.bytes = bytes;
            this.budget = budget;
        }

        boolean overBudget() {
            return bytes.get() > budget;
        }
    }

    private final Total total;
    /** This connection's unsent bytes: touched on its event loop only. */
    private long unsent;

    UnsentAnswers(Total total) {
        this.total = total;
    }

    /** Whether any byte written to this connection is still waiting for its socket. */
    boolean any() {
        return unsent > 0;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        long size = message instanceof ByteBuf bytes ? bytes.readableBytes()
                : message instanceof ByteBufHolder holder ? holder.content().readableBytes() : 0;
        if (size == 0) {
            ctx.write(message, promise);
            return;
        }
        unsent += size;
        total.bytes.addAndGet(size);
        // Completed (or failed, when the connection closes) once the socket took the bytes.
        ctx.write(message, promise.unvoid()).addListener(written -> {
            unsent -= size;
            total.bytes.addAndGet(-size);
            if (unsent == 0 && ctx.channel().isActive()) {
                ctx.fireUserEventTriggered(DRAINED);
            }
        });
    }
}
