package io.sluice.gateway.http;

import java.util.ArrayDeque;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.ops.GatewayMetrics;

/**
 * Serves a connection's requests, routed, authenticated and held to their quota from their heads
 * by {@link Admission}: each goes down the one {@link IngestPath} (its front door reads its items;
 * quota per item → validate → publish → answer once Kafka acknowledged). Nothing here waits for
 * Kafka's acknowledgement: its callback writes the answer.
 * One instance per connection; pipelined requests are answered in order, one at a time, and once
 * an answer closes the connection, the requests still waiting are dropped unanswered, never
 * published.
 */
public final class IngestHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(IngestHandler.class);
    /** Most requests read ahead of the one being answered on a connection (HTTP/1.1 pipelining). */
    static final int MAX_REQUESTS_AHEAD = 16;

    private final Admission admission;
    private final GatewayServices services;
    private final GatewayMetrics metrics;
    private final IngestPath path;
    private final UnsentAnswers unsent;
    private final UnsentAnswers.Total unsentTotal;
    /** Pipelined requests (or {@link BodyLimit.Refused} refusals) that arrived while one was being published. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private boolean busy;
    /** An answer that closes the connection was written: nothing more is handled. */
    private boolean closing;

    /**
     * @param admission   this connection's admission, which hands over each request's route, project and reservation
     * @param path        the ingest path of all connections
     * @param unsent      this connection's answers not yet taken by its socket
     * @param unsentTotal those of all connections, and their budget
     */
    IngestHandler(Admission admission, GatewayServices services, IngestPath path, UnsentAnswers unsent,
                  UnsentAnswers.Total unsentTotal) {
        this.admission = admission;
        this.services = services;
        this.unsent = unsent;
        this.unsentTotal = unsentTotal;
        this.metrics = services.metrics();
        this.path = path;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (closing || !(message instanceof FullHttpRequest || message instanceof BodyLimit.Refused)) {
            ReferenceCountUtil.release(message);
            return;
        }
        if (busy) {
            waiting.add(message);
        } else {
            busy = true;
            handle(ctx, message);
        }
        readOrHold(ctx);
    }

    /**
     * Reads the connection only while its client keeps up: its answers are being taken (the
     * socket is below the high-water mark; and, while the unsent answers of all connections are
     * over their budget, it has none unsent) and at most {@link #MAX_REQUESTS_AHEAD} requests wait
     * behind the one being answered. Otherwise the next requests stay in the client's socket, and
     * {@link io.netty.handler.flow.FlowControlHandler} holds those already decoded from the last read.
     */
    private void readOrHold(ChannelHandlerContext ctx) {
        if (closing) {
            return;
        }
        boolean read = ctx.channel().isWritable() && waiting.size() < MAX_REQUESTS_AHEAD
                && !(unsent.any() && unsentTotal.overBudget());
        ctx.channel().config().setAutoRead(read);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        readOrHold(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == UnsentAnswers.DRAINED) {
            readOrHold(ctx);
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    private void handle(ChannelHandlerContext ctx, Object message) {
        if (message instanceof BodyLimit.Refused refused) {
            refuseReceiving(ctx, refused);
        } else {
            handle(ctx, (FullHttpRequest) message);
        }
    }

    /**
     * A body refused while it arrived (beyond its limit, or its bytes did not fit the budget), in
     * its turn; the connection closes, as the rest of it is not read.
     */
    private void refuseReceiving(ChannelHandlerContext ctx, BodyLimit.Refused refused) {
        long startNanos = System.nanoTime();
        Admitted admitted = admission.next();
        if (admitted == null) { // cannot happen: every request passes admission first
            ctx.close();
            return;
        }
        path.refused(admitted.token(), refused.reason());
        FullHttpResponse answer = path.refusal(admitted.route(), refused.reason(), refused.caller());
        respond(ctx, answer, false, admitted.route().name(), startNanos);
    }

    /** A request whose body arrived: a preflight is answered at once, the rest by the {@link IngestPath} (which releases it). */
    private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
        long startNanos = System.nanoTime();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        Admitted admitted = admission.next();
        if (admitted == null) { // cannot happen: every request passes admission first
            request.release();
            ctx.close();
            return;
        }
        String endpoint = admitted.route().name();
        if (admitted.route().preflight()) {
            request.release();
            respond(ctx, Cors.preflight(), keepAlive, endpoint, startNanos);
            return;
        }
        metrics.received(endpoint, request.content().readableBytes());
        path.handle(admitted, request, services.clock().millis(), ctx.channel()).thenAccept(answer ->
                respond(ctx, answer.response(), keepAlive && answer.keepAlive(), endpoint, startNanos));
    }

    /**
     * Writes the answer on the event loop, then serves the next pipelined request, if any; after
     * an answer that closes the connection, drops the waiting requests instead (their answers
     * could not be sent: publishing them would count events their clients were never told of).
     */
    private void respond(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive,
                         String endpoint, long startNanos) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> respond(ctx, response, keepAlive, endpoint, startNanos));
            return;
        }
        if (!ctx.channel().isActive()) {
            // No one to answer, and the pipeline may be gone: the admission frees what the request held.
            response.release();
            admission.answeredAfterClose();
            return;
        }
        metrics.answered(endpoint, response.status().code(), startNanos);
        if (!keepAlive || services.draining().get()) {
            closing = true;
            waiting.forEach(ReferenceCountUtil::release);
            waiting.clear();
            // Reads (and discards) what the client still sends until the connection closes, so
            // that unread input does not reset the connection before the answer arrives.
            ctx.channel().config().setAutoRead(true);
            Responses.answerAndClose(ctx, response);
            return;
        }
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        ctx.writeAndFlush(response);
        Object next = waiting.poll();
        if (next == null) {
            busy = false;
        } else {
            handle(ctx, next);
        }
        readOrHold(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        waiting.forEach(ReferenceCountUtil::release);
        waiting.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
