package io.sluice.gateway.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.sluice.gateway.admit.Admitted;
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
 * bounded. An admitted head goes on as an {@link AdmittedHead}, with its reservation; a refused
 * one as a {@link RefusedRequest}, answered in its turn, and everything after it on the
 * connection is discarded unread, as it is once another handler says the connection takes no
 * more ({@link TakingNoMore}).
 */
public final class Admission extends ChannelInboundHandlerAdapter {
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final String X_SENTRY_AUTH = "X-Sentry-Auth";

    private final int maxConnections;
    private final GatewayServices services;
    private boolean overConnectionCap;
    /** Once a request is refused, or an answer closes the connection, everything after it on this connection is discarded. */
    private boolean takingNoMore;

    /** @param maxConnections open connections beyond this get 503 */
    Admission(int maxConnections, GatewayServices services) {
        this.maxConnections = maxConnections;
        this.services = services;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        overConnectionCap = services.metrics().openConnections().incrementAndGet() > maxConnections;
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        services.metrics().openConnections().decrementAndGet();
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == TakingNoMore.EVENT) {
            takingNoMore = true;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (takingNoMore) {
            ReferenceCountUtil.release(message); // the connection closes after the answers it owes
            return;
        }
        if (!(message instanceof HttpRequest head)) {
            ctx.fireChannelRead(message);
            return;
        }
        long startNanos = System.nanoTime();
        // The route is parsed here, once: it travels with the request, and with its refusal.
        IngestRoute route = head.decoderResult().isSuccess() ? IngestRoute.ofPath(head.uri()) : null;
        Admitted admitted;
        try {
            admitted = admit(ctx, head, route);
        } catch (Rejection refusal) {
            ReferenceCountUtil.release(message);
            takingNoMore = true;
            ctx.fireChannelRead(new RefusedRequest(route, services.gate().tokenOf(route), null, refusal,
                    FrontDoor.Caller.ofHead(null, head), startNanos));
            return;
        }
        ctx.fireChannelRead(new AdmittedHead(admitted, head));
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
}
