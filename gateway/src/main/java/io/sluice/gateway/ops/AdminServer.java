package io.sluice.gateway.ops;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.sluice.metrics.Scrape;

/**
 * The operators' port, apart from the public one: {@code GET /healthz} (the process serves),
 * {@code GET /readyz} (ready for traffic; 503 with the reasons while not) and
 * {@code GET /metrics} (Prometheus text format, or OpenMetrics / protobuf when the scraper's
 * {@code Accept} asks for them).
 */
public final class AdminServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Channel channel;

    private AdminServer(Channel channel) {
        this.channel = channel;
    }

    /**
     * @param notReadyReasons what currently keeps the gateway from being ready (empty when ready)
     */
    public static AdminServer start(String host, int port, EventLoopGroup group, GatewayMetrics metrics,
                                    Supplier<List<String>> notReadyReasons) throws InterruptedException {
        return start(host, port, group, metrics, notReadyReasons, List::of);
    }

    /**
     * @param notReadyReasons what currently keeps the gateway from being ready (empty when ready)
     * @param degradedReasons what fails for some requests only (one project), listed in a ready
     *                        answer's {@code "degraded"}: no reason to take the gateway out of rotation
     */
    public static AdminServer start(String host, int port, EventLoopGroup group, GatewayMetrics metrics,
                                    Supplier<List<String>> notReadyReasons, Supplier<List<String>> degradedReasons)
            throws InterruptedException {
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(8192),
                                new AdminHandler(metrics, notReadyReasons, degradedReasons));
                    }
                })
                .bind(new InetSocketAddress(host, port)).sync().channel();
        return new AdminServer(channel);
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private static final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final GatewayMetrics metrics;
        private final Supplier<List<String>> notReadyReasons;
        private final Supplier<List<String>> degradedReasons;

        AdminHandler(GatewayMetrics metrics, Supplier<List<String>> notReadyReasons, Supplier<List<String>> degradedReasons) {
            this.metrics = metrics;
            this.notReadyReasons = notReadyReasons;
            this.degradedReasons = degradedReasons;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            String path = request.uri().split("\\?", 2)[0];
            FullHttpResponse response = switch (path) {
                case "/healthz" -> json(HttpResponseStatus.OK, JSON.createObjectNode().put("status", "ok"));
                case "/readyz" -> readiness();
                case "/metrics" -> metrics(metrics.scrape(request.headers().get(HttpHeaderNames.ACCEPT)));
                default -> json(HttpResponseStatus.NOT_FOUND, JSON.createObjectNode()
                        .put("error", "not_found").put("message", "admin paths: /healthz, /readyz, /metrics"));
            };
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }

        private FullHttpResponse readiness() {
            List<String> reasons = notReadyReasons.get();
            if (reasons.isEmpty()) {
                ObjectNode body = JSON.createObjectNode().put("status", "ready");
                List<String> degraded = degradedReasons.get();
                if (!degraded.isEmpty()) {
                    degraded.forEach(body.putArray("degraded")::add);
                }
                return json(HttpResponseStatus.OK, body);
            }
            ObjectNode body = JSON.createObjectNode().put("status", "not_ready");
            reasons.forEach(body.putArray("reasons")::add);
            return json(HttpResponseStatus.SERVICE_UNAVAILABLE, body);
        }

        private static FullHttpResponse metrics(Scrape scrape) {
            return bytes(scrape.body(), scrape.contentType());
        }

        private static FullHttpResponse json(HttpResponseStatus status, ObjectNode body) {
            FullHttpResponse response = text(body.toString(), "application/json");
            response.setStatus(status);
            return response;
        }

        private static FullHttpResponse text(String body, String contentType) {
            return bytes(body.getBytes(StandardCharsets.UTF_8), contentType);
        }

        private static FullHttpResponse bytes(byte[] bytes, String contentType) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(bytes));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType).setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            return response;
        }
    }
}
