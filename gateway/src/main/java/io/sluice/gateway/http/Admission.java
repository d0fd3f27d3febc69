package io.sluice.gateway.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.admit.RequestHead;
import io.sluice.outcomes.Outcome;

/**
 * Decides, from a request's head and before its body is buffered, whether the gateway takes it
 * on: refuses malformed heads (431, 414, 400), answers 503 with Retry-After while the gateway
 * drains or the connection cap is exceeded, and otherwise asks the
 * {@link io.sluice.gateway.admit.Gate} (route, client, credentials, quota, declared size,
 * in-flight budget). So a stranger never holds memory, and the memory of admitted requests stays
 * bounded. An admitted request holds its reservation (the bytes of its body as they arrive, taken
 * by {@link BodyLimit}, and their decompressed form) until its answer is written; a refused one
 * closes its connection, its body discarded unread. Answers go out in request order: a refusal
 * waits for the answers to the requests before it, and every other answer is the ingest
 * handler's, which answers its requests one at a time, in order.
 */
public final class Admission extends ChannelDuplexHandler {
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final String X_SENTRY_AUTH = "X-Sentry-Auth";

    private final int maxConnections;
    private final GatewayServices services;
    /** Reservations of admitted requests on this connection, oldest first; one answer releases one. */
    private final ArrayDeque<InFlightBudget.Reservation> reserved = new ArrayDeque<>();
    /** Admitted requests the ingest handler has not taken yet, in order. */
    private final ArrayDeque<Admitted> admitted = new ArrayDeque<>();
    /**
     * The oldest admitted request was handed to the ingest handler ({@link #next}) and is not
     * answered yet: it may still be read (on a read worker) or published after its connection
     * closes, so it keeps its reservation, and stays in flight, until its answer is written.
     */
    private boolean handedOver;
    private boolean overConnectionCap;
    /** Once a request is refused, everything after it on this connection is discarded. */
    private boolean refused;
    /** A refusal waiting for the answers to earlier requests: answers go out in request order. */
    private Rejection deferred;
    /** The route of the refused request, whose door writes its refusal (the Sentry doors' carry CORS headers). */
    private IngestRoute refusedRoute;
    /** Who sent the refused request, as its head tells: an OTLP refusal answers in the request's encoding. */
    private FrontDoor.Caller refusedCaller;
    private final IngestPath path;

    /**
     * @param maxConnections open connections beyond this get 503
     * @param path           the ingest path of all connections, which records and writes refusals
     */
    Admission(int maxConnections, GatewayServices services, IngestPath path) {
        this.maxConnections = maxConnections;
        this.services = services;
        this.path = path;
    }

    /** The next admitted request, in the order their bodies arrive; null if none. */
    Admitted next() {
        Admitted next = admitted.poll();
        handedOver |= next != null;
        return next;
    }

    /** The request whose body is being received: the one admitted last (its head has just passed). */
    Admitted receiving() {
        return admitted.peekLast();
    }

    /** True when the request being received is the only one on this connection not answered yet. */
    boolean nextInLine() {
        return reserved.size() == 1;
    }

    /**
     * The request handed over by {@link #next} was handled after its connection closed (its
     * answer goes nowhere): what it held is free now, and it is no longer in flight.
     */
    void answeredAfterClose() {
        handedOver = false;
        if (!reserved.isEmpty()) {
            release();
        }
    }

    /** Nothing more on this connection is taken on (the request being received is refused, and the connection closes). */
    void takeNoMore() {
        refused = true;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        overConnectionCap = services.metrics().openConnections().incrementAndGet() > maxConnections;
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        services.metrics().openConnections().decrementAndGet();
        // What waits behind is freed now; the request handed over only once the ingest path is
        // done with it (see answeredAfterClose): a read worker may still hold its body.
        InFlightBudget.Reservation handed = handedOver ? reserved.poll() : null;
        while (!reserved.isEmpty()) {
            release();
        }
        if (handed != null) {
            reserved.add(handed);
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
            // The route is parsed here, once: it travels with the request, and with its refusal.
            IngestRoute route = head.decoderResult().isSuccess() ? IngestRoute.ofPath(head.uri()) : null;
            Admitted request;
            try {
                request = admit(ctx, head, route);
            } catch (Rejection refusal) {
                ReferenceCountUtil.release(message);
                refusedCaller = FrontDoor.Caller.ofHead(null, head);
                refuse(ctx, route, refusal, startNanos);
                return;
            }
            reserved.add(request.reservation());
            admitted.add(request);
            services.metrics().inFlightRequests().incrementAndGet();
        }
        ctx.fireChannelRead(message);
    }

    /** The admitted request, or the {@link Rejection} that refuses it. */
    private Admitted admit(ChannelHandlerContext ctx, HttpRequest head, IngestRoute route) {
        if (head.decoderResult().isFailure()) {
            throw malformed(head.decoderResult().cause());
        }
        if (services.draining().get()) {
            throw new Rejection(Outcome.SHUTTING_DOWN, "this gateway is shutting down; retry (another gateway will answer)");
        }
        if (overConnectionCap) {
            throw new Rejection(Outcome.OVERLOADED, "the gateway is at its connection limit; retry later");
        }
        InetAddress peer = ctx.channel().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
        long contentLength = HttpUtil.isContentLengthSet(head) ? Math.max(HttpUtil.getContentLength(head, 0L), 0L) : -1;
        return services.gate().admit(route, new RequestHead(head.method().name(), head.uri(), peer,
                head.headers().getAll(X_FORWARDED_FOR), head.headers().get(HttpHeaderNames.AUTHORIZATION), contentLength,
                head.headers().get(X_SENTRY_AUTH), head.headers().get(HttpHeaderNames.ORIGIN)));
    }

    private static Rejection malformed(Throwable cause) {
        if (cause instanceof TooLongHttpHeaderException) {
            return new Rejection(Outcome.HEADERS_TOO_LARGE, "the request headers are too large");
        }
        if (cause instanceof TooLongHttpLineException) {
            return new Rejection(Outcome.URI_TOO_LONG, "the request line is too long");
        }
        String detail = cause instanceof TooLongFrameException ? "a part is too long" : String.valueOf(cause.getMessage());
        return new Rejection(Outcome.BAD_REQUEST, "malformed HTTP request: " + detail);
    }

    /** @param route the request's route, or null when its path names none (or its head could not be read) */
    private void refuse(ChannelHandlerContext ctx, IngestRoute route, Rejection refusal, long startNanos) {
        refused = true;
        path.refused(services.gate().tokenOf(route), refusal);
        services.metrics().answered(route == null ? "other" : route.name(), refusal.status(), startNanos);
        refusedRoute = route;
        if (reserved.isEmpty()) {
            Responses.answerAndClose(ctx, answer(refusal));
        } else {
            deferred = refusal; // sent once the requests before it are answered
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        // One final answer releases the oldest admitted request: the ingest handler answers them
        // in order (this handler's own refusals are written from its own context and do not pass
        // here; interim "100 Continue" answers release nothing).
        if (message instanceof HttpResponse response && response.status().code() >= 200) {
            handedOver = false;
            if (!reserved.isEmpty()) {
                release();
            }
            if (!HttpUtil.isKeepAlive(response)) {
                // The connection closes after this answer: nothing after it is taken on or
                // answered, and what the requests behind it held is free now, not at the close.
                refused = true;
                deferred = null;
                while (!reserved.isEmpty()) {
                    release();
                }
                admitted.clear();
            }
        }
        ctx.write(message, promise);
        if (deferred != null && reserved.isEmpty()) {
            Rejection refusal = deferred;
            deferred = null;
            Responses.answerAndClose(ctx, answer(refusal));
        }
    }

    /** A refusal's answer, as its door writes it (on the Sentry endpoints with CORS headers, so browser SDKs can read it). */
    private FullHttpResponse answer(Rejection refusal) {
        return path.refusal(refusedRoute, refusal, refusedCaller);
    }

    private void release() {
        reserved.poll().release();
        services.metrics().inFlightRequests().decrementAndGet();
    }
}
