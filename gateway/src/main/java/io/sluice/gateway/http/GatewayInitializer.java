package io.sluice.gateway.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;

/** The gateway's pipeline, top to bottom as a request travels through it. */
public final class GatewayInitializer extends ChannelInitializer<SocketChannel> {
    private static final int MAX_INITIAL_LINE_BYTES = 8 * 1024;
    private static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int MAX_CHUNK_BYTES = 16 * 1024;

    private final SslContext tls;
    private final HttpLimits limits;
    private final GatewayServices services;

    /** @param tls the TLS context, or null for plain HTTP */
    public GatewayInitializer(SslContext tls, HttpLimits limits, GatewayServices services) {
        this.tls = tls;
        this.limits = limits;
        this.services = services;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(channel.alloc()));
        }
        pipeline.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE_BYTES, MAX_HEADER_BYTES, MAX_CHUNK_BYTES));
        pipeline.addLast("timeouts", new ReceiveTimeouts(limits.idleTimeout(), limits.receiveTimeout()));
        Admission admission = new Admission(limits.maxConnections(), services);
        pipeline.addLast("admission", admission);
        pipeline.addLast("body", new BodyLimit(services.gate().largestBody(), admission));
        pipeline.addLast("ingest", new IngestHandler(admission, services));
    }
}
