package io.sluice.gateway.http;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.handler.ssl.SslContext;

/** The gateway's pipeline, top to bottom as a request travels through it. */
public final class GatewayInitializer extends ChannelInitializer<SocketChannel> {
    private static final int MAX_INITIAL_LINE_BYTES = 8 * 1024;
    private static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int MAX_CHUNK_BYTES = 16 * 1024;
    /**
     * Answers a connection may have waiting for its client before the connection stops being
     * read (its client reads no answers): a hundred or so. Netty's default is 64 KiB.
     */
    private static final WriteBufferWaterMark UNSENT_ANSWERS = new WriteBufferWaterMark(16 * 1024, 32 * 1024);
    /**
     * The most one read takes from a socket (Netty's default is 64 KiB): the requests decoded from
     * one read are held in memory when the connection stops being read, as objects several times
     * the size of their bytes.
     */
    private static final int MAX_READ_BYTES = 16 * 1024;

    private final SslContext tls;
    private final HttpLimits limits;
    private final GatewayServices services;
    private final UnsentAnswers.Total unsentAnswers;
    private final IngestPath path;

    /**
     * @param tls           the TLS context, or null for plain HTTP
     * @param unsentAnswers the answers of all connections not yet taken by their sockets, and their budget
     */
    public GatewayInitializer(SslContext tls, HttpLimits limits, GatewayServices services, UnsentAnswers.Total unsentAnswers) {
        this.tls = tls;
        this.limits = limits;
        this.services = services;
        this.unsentAnswers = unsentAnswers;
        this.path = new IngestPath(services);
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.config().setWriteBufferWaterMark(UNSENT_ANSWERS);
        channel.config().setRecvByteBufAllocator(new AdaptiveRecvByteBufAllocator(64, 2048, MAX_READ_BYTES));
        ChannelPipeline pipeline = channel.pipeline();
        UnsentAnswers unsent = new UnsentAnswers(unsentAnswers);
        pipeline.addLast("unsent", unsent);
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(channel.alloc()));
        }
        pipeline.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE_BYTES, MAX_HEADER_BYTES, MAX_CHUNK_BYTES));
        // Holds the requests decoded from the last read while the connection is not read (see IngestHandler).
        pipeline.addLast("flow", new FlowControlHandler());
        pipeline.addLast("timeouts", new ReceiveTimeouts(limits.idleTimeout(), limits.receiveTimeout()));
        // An admitted request goes on as one message (AdmittedHead, then AdmittedRequest or RefusedRequest):
        // the ingest handler holds its reservation and frees it once its answer is written.
        pipeline.addLast("admission", new Admission(limits.maxConnections(), services));
        pipeline.addLast("body", new BodyLimit(services.gate().largestBody()));
        pipeline.addLast("ingest", new IngestHandler(services, path, unsent, unsentAnswers));
    }
}
