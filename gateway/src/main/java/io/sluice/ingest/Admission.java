package io.sluice.ingest;

import java.util.ArrayDeque;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.sluice.ops.GatewayMetrics;
import io.sluice.ops.Outcomes;

/**
 * Decides, from a request's head and before its body is buffered, whether the gateway takes it
 * on. Refuses malformed heads (431, 414, 400), and answers 503 with Retry-After when the
 * connection cap or the budget of in-flight bytes is exhausted, so memory stays bounded under
 * overload. An admitted request reserves its declared size (or the body limit) until its answer
 * is written.
 */
public final class Admission extends ChannelDuplexHandler {
    private final Limits limits;
    private final GatewayMetrics metrics;
    private final Outcomes outcomes;
    private final java.util.concurrent.atomic.AtomicBoolean draining;
    /** Reservations of admitted requests on this connection, oldest first; one answer releases one. */
    private final ArrayDeque<Long> reserved = new ArrayDeque<>();
    private boolean overConnectionCap;
    /** Once a request is refused, everything after it on this connection is discarded. */
    private boolean refused;
    /** A refusal waiting for the answers to earlier requests: answers go out in request order. */
    private Rejection deferred;

    /** The caps, shared by all connections of a gateway. */
    public record Limits(int maxConnections, long maxInFlightBytes, int maxBodyBytes) {
    }

    /**
     * @param draining set when the gateway shuts down: new requests get 503 and go elsewhere
     */
    public Admission(Limits limits, GatewayMetrics metrics, Outcomes outcomes,
                     java.util.concurrent.atomic.AtomicBoolean draining) {
        this.limits = limits;
        this.metrics = metrics;
        this.outcomes = outcomes;
        this.draining = draining;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        overConnectionCap = metrics.openConnections().incrementAndGet() > limits.maxConnections();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        metrics.openConnections().decrementAndGet();
        while (!reserved.isEmpty()) {
            release();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (refused) {
            ReferenceCountUtil.release(message); // the connection closes after the refusal
            return;
        }
        if (message instanceof HttpRequest head) {
            long reservation = HttpUtil.isContentLengthSet(head)
                    ? Math.min(Math.max(HttpUtil.getContentLength(head, 0L), 0L), limits.maxBodyBytes())
                    : limits.maxBodyBytes();
            Rejection refusal = refusal(head, reservation);
            if (refusal != null) {
                refused = true;
                metrics.rejected(refusal.code());
                outcomes.record(head.decoderResult().isSuccess() ? IngestRoute.tokenOf(head.uri()) : null, refusal.code());
                ReferenceCountUtil.release(message);
                if (reserved.isEmpty()) {
                    Responses.refuseAndClose(ctx, Responses.error(refusal));
                } else {
                    deferred = refusal; // sent once the requests before it are answered
                }
                return;
            }
            reserved.add(reservation);
            metrics.inFlightRequests().incrementAndGet();
        }
        ctx.fireChannelRead(message);
    }

    /** Why this request is not taken on, or null; reserves {@code reservation} bytes when it is. */
    private Rejection refusal(HttpRequest head, long reservation) {
        if (head.decoderResult().isFailure()) {
            Throwable cause = head.decoderResult().cause();
            if (cause instanceof TooLongHttpHeaderException) {
                return new Rejection(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large",
                        "the request headers are too large");
            }
            if (cause instanceof TooLongHttpLineException) {
                return new Rejection(HttpResponseStatus.REQUEST_URI_TOO_LONG, "uri_too_long", "the request line is too long");
            }
            String detail = cause instanceof TooLongFrameException ? "a part is too long" : String.valueOf(cause.getMessage());
            return new Rejection(HttpResponseStatus.BAD_REQUEST, "bad_request", "malformed HTTP request: " + detail);
        }
        if (draining.get()) {
            return new Rejection(HttpResponseStatus.SERVICE_UNAVAILABLE, "shutting_down",
                    "this gateway is shutting down; retry (another gateway will answer)");
        }
        if (overConnectionCap) {
            return new Rejection(HttpResponseStatus.SERVICE_UNAVAILABLE, "overloaded",
                    "the gateway is at its connection limit; retry later");
        }
        // Reserve only what fits: a compare-and-set loop, so the total never exceeds the budget,
        // not even for a moment.
        java.util.concurrent.atomic.AtomicLong inFlight = metrics.inFlightBytes();
        long current;
        do {
            current = inFlight.get();
            if (current + reservation > limits.maxInFlightBytes()) {
                return new Rejection(HttpResponseStatus.SERVICE_UNAVAILABLE, "overloaded",
                        "the gateway is at its limit of requests in flight; retry later");
            }
        } while (!inFlight.compareAndSet(current, current + reservation));
        return null;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        // One final answer releases one admitted request (this handler's own refusals are written
        // from its own context and do not pass here; interim "100 Continue" answers release nothing).
        if (message instanceof HttpResponse response && response.status().code() >= 200 && !reserved.isEmpty()) {
            release();
        }
        ctx.write(message, promise);
        if (deferred != null && reserved.isEmpty()) {
            Rejection refusal = deferred;
            deferred = null;
            Responses.refuseAndClose(ctx, Responses.error(refusal));
        }
    }

    private void release() {
        metrics.inFlightBytes().addAndGet(-reserved.poll());
        metrics.inFlightRequests().decrementAndGet();
    }
}
