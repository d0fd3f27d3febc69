package io.sluice.gateway.http;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Slow clients cannot hold connections: a connection with no request under way closes after the
 * idle timeout (this also bounds a head sent one byte at a time), and a request whose body is
 * not complete within the receive timeout (from its head, or from its "100 Continue") gets 408 and
 * the connection closes.
 */
public final class ReceiveTimeouts extends ChannelDuplexHandler {
    private final Duration idleTimeout;
    private final Duration receiveTimeout;
    private ScheduledFuture<?> timer;
    private boolean receiving;

    public ReceiveTimeouts(Duration idleTimeout, Duration receiveTimeout) {
        this.idleTimeout = idleTimeout;
        this.receiveTimeout = receiveTimeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        armIdle(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpRequest) {
            receiving = true;
            armReceive(ctx);
        }
        if (message instanceof LastHttpContent) {
            receiving = false;
            cancel(); // waiting for Kafka is bounded by the publish timeout instead
        }
        ctx.fireChannelRead(message);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (message instanceof HttpResponse response) {
            if (!receiving) {
                armIdle(ctx);
            } else if (response.status().equals(HttpResponseStatus.CONTINUE)) {
                armReceive(ctx); // its client sends the body from now on (it may have waited behind earlier answers)
            }
        }
        ctx.write(message, promise);
    }

    private void armReceive(ChannelHandlerContext ctx) {
        arm(ctx, receiveTimeout, () -> {
            Rejection tooSlow = new Rejection(Outcome.REQUEST_TIMEOUT,
                    "the request was not received completely within " + receiveTimeout.toSeconds() + " s");
            ctx.writeAndFlush(Responses.error(tooSlow)).addListener(ChannelFutureListener.CLOSE);
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancel();
        ctx.fireChannelInactive();
    }

    private void armIdle(ChannelHandlerContext ctx) {
        arm(ctx, idleTimeout, ctx::close);
    }

    private void arm(ChannelHandlerContext ctx, Duration after, Runnable action) {
        cancel();
        timer = ctx.executor().schedule(action, after.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
