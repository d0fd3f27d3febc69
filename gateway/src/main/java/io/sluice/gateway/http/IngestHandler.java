package io.sluice.gateway.http;

import java.util.ArrayDeque;
import java.util.Iterator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ops.GatewayMetrics;

/**
 * Serves a connection's requests, routed, authenticated and held to their quota from their heads
 * by {@link Admission}: each goes down the one {@link IngestPath} (its front door reads its items;
 * quota per item → validate → publish → answer once Kafka acknowledged). Nothing here waits for
 * Kafka's acknowledgement: its callback writes the answer.
 * One instance per connection; pipelined requests are answered in order, one at a time, and once
 * an answer closes the connection, the requests still waiting are dropped unanswered, never
 * published.
 *
 * <p>It holds the reservation of every request admitted on its connection, from its
 * {@link AdmittedHead} on, and frees it, and takes the request out of the in-flight gauge, as the
 * request's answer is written (handed to the connection, before its client can read it: its body
 * is garbage by then, and the answer's bytes are {@link UnsentAnswers}'), or when the connection
 * closes before. The request handed to the ingest path keeps its reservation until the path is done with
 * it, even after its connection closed: a read worker may still hold its body.
 */
public final class IngestHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(IngestHandler.class);
    /** Most requests read ahead of the one being answered on a connection (HTTP/1.1 pipelining). */
    static final int MAX_REQUESTS_AHEAD = 16;

    private final GatewayServices services;
    private final GatewayMetrics metrics;
    private final IngestPath path;
    private final UnsentAnswers unsent;
    private final UnsentAnswers.Total unsentTotal;
    /** Requests admitted on this connection whose answers are not written yet, oldest first: their reservations are held here. */
    private final ArrayDeque<Admitted> held = new ArrayDeque<>();
    /** A request whose head expects "100 Continue" while earlier ones were unanswered: told once it is next in line. */
    private Admitted continueDue;
    /** Requests ({@link AdmittedRequest}, {@link RefusedRequest}) that arrived while one was being answered. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** The request handed to the ingest path and not answered yet, or null. */
    private Admitted inPath;
    private boolean busy;
    /** An answer that closes the connection was written: nothing more is handled. */
    private boolean closing;

    /**
     * @param path        the ingest path of all connections
     * @param unsent      this connection's answers not yet taken by its socket
     * @param unsentTotal those of all connections, and their budget
     */
    IngestHandler(GatewayServices services, IngestPath path, UnsentAnswers unsent, UnsentAnswers.Total unsentTotal) {
        this.services = services;
        this.unsent = unsent;
        this.unsentTotal = unsentTotal;
        this.metrics = services.metrics();
        this.path = path;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof AdmittedHead head) {
            hold(ctx, head);
            return;
        }
        if (closing || !(message instanceof AdmittedRequest || message instanceof RefusedRequest)) {
            ReferenceCountUtil.release(message);
            return;
        }
        if (message instanceof RefusedRequest refused) {
            path.refused(refused.token(), refused.reason()); // counted when refused, answered in its turn
        }
        continueDue = null; // its body arrived, or it was refused: nothing more to tell it
        if (busy) {
            waiting.add(message);
        } else {
            busy = true;
            handle(ctx, message);
        }
        readOrHold(ctx);
    }

    /**
     * Holds an admitted request's reservation until its answer is written. Sends "100 Continue"
     * when its head expects one once every earlier request is answered (now, or when the last of
     * them is): sent sooner, the client would take it for the answer to an earlier one. Other
     * expectations are ignored, as RFC 9110 allows.
     */
    private void hold(ChannelHandlerContext ctx, AdmittedHead head) {
        metrics.inFlightRequests().incrementAndGet();
        held.add(head.admitted());
        if (closing) { // cannot happen: nothing is admitted once the connection closes after its answers
            free(head.admitted());
            return;
        }
        if (HttpUtil.is100ContinueExpected(head.head())) {
            continueDue = head.admitted();
            continueIfNextInLine(ctx);
        }
    }

    private void continueIfNextInLine(ChannelHandlerContext ctx) {
        if (continueDue != null && held.peekFirst() == continueDue) {
            continueDue = null;
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
        }
    }

    /** Gives back what a request held, once: its answer is written, or it will never be. */
    private void free(Admitted admitted) {
        for (Iterator<Admitted> holding = held.iterator(); holding.hasNext(); ) {
            if (holding.next() == admitted) {
                holding.remove();
                admitted.reservation().release();
                metrics.inFlightRequests().decrementAndGet();
                return;
            }
        }
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
        } else if (event != TakingNoMore.EVENT) { // the handlers before this one act on it
            ctx.fireUserEventTriggered(event);
        }
    }

    private void handle(ChannelHandlerContext ctx, Object message) {
        if (message instanceof RefusedRequest refused) {
            // Refused whole (from its head, or while its body arrived): the connection closes, as the rest of it is not read.
            respond(ctx, refused.admitted(), path.refusal(refused.route(), refused.reason(), refused.caller()), false,
                    refused.endpoint(), refused.startNanos());
        } else {
            handle(ctx, (AdmittedRequest) message);
        }
    }

    /** A request whose body arrived: a preflight is answered at once, the rest by the {@link IngestPath} (which releases it). */
    private void handle(ChannelHandlerContext ctx, AdmittedRequest message) {
        long startNanos = System.nanoTime();
        FullHttpRequest request = message.request();
        Admitted admitted = message.admitted();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String endpoint = admitted.route().name();
        if (admitted.route().preflight()) {
            request.release();
            respond(ctx, admitted, Cors.preflight(), keepAlive, endpoint, startNanos);
            return;
        }
        metrics.received(endpoint, request.content().readableBytes());
        inPath = admitted;
        path.handle(admitted, request, services.clock().millis(), ctx.channel()).thenAccept(answer ->
                respond(ctx, admitted, answer.response(), keepAlive && answer.keepAlive(), endpoint, startNanos));
    }

    /**
     * Writes the answer on the event loop, frees what its request held as it is written, then serves
     * the next pipelined request, if any; after an answer that closes the connection, drops the
     * waiting requests instead (their answers could not be sent: publishing them would count
     * events their clients were never told of) and frees what they held.
     *
     * @param admitted the answered request's admission; null for a request refused from its head (it holds nothing)
     */
    private void respond(ChannelHandlerContext ctx, Admitted admitted, FullHttpResponse response, boolean keepAlive,
                         String endpoint, long startNanos) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> respond(ctx, admitted, response, keepAlive, endpoint, startNanos));
            return;
        }
        if (admitted == inPath) {
            inPath = null;
        }
        if (!ctx.channel().isActive()) {
            // No one to answer: what the request held is free now (the others' went at the close).
            response.release();
            free(admitted);
            return;
        }
        metrics.answered(endpoint, response.status().code(), startNanos);
        if (!keepAlive || services.draining().get()) {
            closing = true;
            waiting.forEach(ReferenceCountUtil::release);
            waiting.clear();
            // What the requests behind this answer held is free now, not at the close; nothing after it is admitted.
            for (Admitted behind : held.toArray(Admitted[]::new)) {
                if (behind != admitted) {
                    free(behind);
                }
            }
            ctx.pipeline().fireUserEventTriggered(TakingNoMore.EVENT);
            // Reads (and discards) what the client still sends until the connection closes, so
            // that unread input does not reset the connection before the answer arrives.
            ctx.channel().config().setAutoRead(true);
            free(admitted); // before the answer goes out: its client may look at the gateway once it reads it
            Responses.answerAndClose(ctx, response);
            return;
        }
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        free(admitted);
        ctx.writeAndFlush(response);
        continueIfNextInLine(ctx);
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
        // What waits is free now; the request handed to the ingest path once the path is done with it.
        for (Admitted admitted : held.toArray(Admitted[]::new)) {
            if (admitted != inPath) {
                free(admitted);
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
