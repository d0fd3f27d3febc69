package io.sluice.gateway.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.ClientKey;
import io.sluice.gateway.admit.FailedAuthLimiter;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.IngestRoute;
import io.sluice.gateway.admit.Rejection;
import io.sluice.gateway.admit.TrustedProxies;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.publish.Outcomes;
import io.sluice.projects.Project;

/**
 * Decides, from a request's head and before its body is buffered, whether the gateway takes it
 * on: refuses malformed heads (431, 414, 400), unknown routes (404, 405), clients that failed
 * authentication too often (429) and bad credentials (401, 403), and answers 503 with
 * Retry-After when the connection cap or the in-flight budget (in total, or the client's share)
 * is exhausted. So a stranger never holds memory, and the memory of admitted requests stays
 * bounded. An admitted request reserves its declared size (or the body limit) until its answer
 * is written; a refused one closes its connection, its body discarded unread.
 */
public final class Admission extends ChannelDuplexHandler {
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";

    private final Limits limits;
    private final Gate gate;
    private final GatewayMetrics metrics;
    private final Outcomes outcomes;
    private final AtomicBoolean draining;
    /** Reservations of admitted requests on this connection, oldest first; one answer releases one. */
    private final ArrayDeque<InFlightBudget.Reservation> reserved = new ArrayDeque<>();
    /** Admitted requests the ingest handler has not taken yet, in order. */
    private final ArrayDeque<Admitted> admitted = new ArrayDeque<>();
    private boolean overConnectionCap;
    /** Once a request is refused, everything after it on this connection is discarded. */
    private boolean refused;
    /** A refusal waiting for the answers to earlier requests: answers go out in request order. */
    private Rejection deferred;

    /** The caps, shared by all connections of a gateway. */
    public record Limits(int maxConnections, int maxBodyBytes) {
    }

    /** Who may come in, shared by all connections of a gateway. */
    public record Gate(Authenticator authenticator, FailedAuthLimiter failedAuth, TrustedProxies proxies,
                       InFlightBudget budget) {
    }

    /** A request taken on: where it goes, whose it is, and its share of the in-flight budget. */
    public record Admitted(IngestRoute route, Project project, InFlightBudget.Reservation reservation) {
    }

    /**
     * @param draining set when the gateway shuts down: new requests get 503 and go elsewhere
     */
    public Admission(Limits limits, Gate gate, GatewayMetrics metrics, Outcomes outcomes, AtomicBoolean draining) {
        this.limits = limits;
        this.gate = gate;
        this.metrics = metrics;
        this.outcomes = outcomes;
        this.draining = draining;
    }

    /** The next admitted request, in the order their bodies arrive; null if none. */
    public Admitted next() {
        return admitted.poll();
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
        admitted.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (refused) {
            ReferenceCountUtil.release(message); // the connection closes after the refusal
            return;
        }
        if (message instanceof HttpRequest head) {
            long startNanos = System.nanoTime();
            Admitted request;
            try {
                request = admit(ctx, head);
            } catch (Rejection refusal) {
                ReferenceCountUtil.release(message);
                refuse(ctx, head, refusal, startNanos);
                return;
            }
            reserved.add(request.reservation());
            admitted.add(request);
            metrics.inFlightRequests().incrementAndGet();
        }
        ctx.fireChannelRead(message);
    }

    /** The admitted request, or the {@link Rejection} that refuses it. */
    private Admitted admit(ChannelHandlerContext ctx, HttpRequest head) {
        if (head.decoderResult().isFailure()) {
            throw malformed(head.decoderResult().cause());
        }
        if (draining.get()) {
            throw new Rejection(HttpResponseStatus.SERVICE_UNAVAILABLE, "shutting_down",
                    "this gateway is shutting down; retry (another gateway will answer)");
        }
        if (overConnectionCap) {
            throw new Rejection(HttpResponseStatus.SERVICE_UNAVAILABLE, "overloaded",
                    "the gateway is at its connection limit; retry later");
        }
        IngestRoute route = IngestRoute.of(head.method(), head.uri());
        InetAddress peer = ctx.channel().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
        List<String> forwardedFor = peer != null && gate.proxies().trusts(peer) ? head.headers().getAll(X_FORWARDED_FOR) : List.of();
        InetAddress client = ClientKey.of(gate.proxies().clientOf(peer, forwardedFor));
        gate.failedAuth().check(client, System.nanoTime());
        Project project;
        try {
            project = gate.authenticator().authenticate(route.token(), head.headers().get(HttpHeaderNames.AUTHORIZATION));
        } catch (Rejection refusedCredentials) {
            // Only a key that matches nothing is a guess; a 403 (a disabled project, another
            // project's key) comes from a real key and must not lock out its whole address.
            if (refusedCredentials.status().code() == 401) {
                gate.failedAuth().failed(client, System.nanoTime());
            }
            throw refusedCredentials;
        }
        long size = HttpUtil.isContentLengthSet(head)
                ? Math.min(Math.max(HttpUtil.getContentLength(head, 0L), 0L), limits.maxBodyBytes())
                : limits.maxBodyBytes();
        return new Admitted(route, project, gate.budget().reserve(client, size));
    }

    private static Rejection malformed(Throwable cause) {
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

    private void refuse(ChannelHandlerContext ctx, HttpRequest head, Rejection refusal, long startNanos) {
        refused = true;
        String token = head.decoderResult().isSuccess() ? IngestRoute.tokenOf(head.uri()) : null;
        metrics.rejected(refusal.code());
        metrics.answered(endpointOf(head), refusal.status().code(), startNanos);
        outcomes.record(token, refusal.code());
        if (reserved.isEmpty()) {
            Responses.refuseAndClose(ctx, Responses.error(refusal));
        } else {
            deferred = refusal; // sent once the requests before it are answered
        }
    }

    private static String endpointOf(HttpRequest head) {
        if (head.decoderResult().isFailure()) {
            return "other";
        }
        try {
            return IngestRoute.of(HttpMethod.POST, head.uri()).endpoint().pathSegment();
        } catch (Rejection notAnIngestPath) {
            return "other";
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        // One final answer releases one admitted request (this handler's own refusals are written
        // from its own context and do not pass here; interim "100 Continue" answers release nothing).
        if (message instanceof HttpResponse response && response.status().code() >= 200) {
            if (!reserved.isEmpty()) {
                release();
            }
            if (!HttpUtil.isKeepAlive(response)) {
                refused = true; // the connection closes after this answer: nothing sent after it is taken on
            }
        }
        ctx.write(message, promise);
        if (deferred != null && reserved.isEmpty()) {
            Rejection refusal = deferred;
            deferred = null;
            Responses.refuseAndClose(ctx, Responses.error(refusal));
        }
    }

    private void release() {
        InFlightBudget.Reservation answered = reserved.poll();
        // Answered before the ingest handler took it (its body was refused on the way, 413): it is
        // not the next one the handler gets.
        if (!admitted.isEmpty() && admitted.peek().reservation() == answered) {
            admitted.poll();
        }
        answered.release();
        metrics.inFlightRequests().decrementAndGet();
    }
}
