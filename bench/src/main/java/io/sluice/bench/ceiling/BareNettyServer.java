package io.sluice.bench.ceiling;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
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
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The ceiling for the gateway: the same Netty, codec and aggregation, answering 200 with an id to
 * every request and doing nothing else (no auth, no JSON, no Kafka).
 */
public final class BareNettyServer implements AutoCloseable {
    private static final byte[] ANSWER = "{\"id\":\"00000000000000000000000000000000\"}".getBytes(StandardCharsets.UTF_8);

    /** The name its event loops' threads start with, so that their CPU can be told from the rest of this JVM's. */
    static final String THREADS = "bare-netty";

    private final EventLoopGroup group;
    private final Channel channel;

    public BareNettyServer(int port) throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(0, new DefaultThreadFactory(THREADS), NioIoHandler.newFactory());
        channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                                        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.OK, Unpooled.wrappedBuffer(ANSWER));
                                        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                                                .setInt(HttpHeaderNames.CONTENT_LENGTH, ANSWER.length);
                                        ctx.writeAndFlush(response);
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                        ctx.close(); // the load generator resets its connections when it stops
                                    }
                                });
                    }
                }).bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully().syncUninterruptibly();
    }
}
