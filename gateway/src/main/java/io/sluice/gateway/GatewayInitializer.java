package io.sluice.gateway;

import java.time.Clock;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.sluice.auth.Authenticator;
import io.sluice.ingest.BodyDecoder;
import io.sluice.ingest.EventPublisher;
import io.sluice.ingest.EventValidator;
import io.sluice.ingest.IngestHandler;
import io.sluice.ingest.Rejection;
import io.sluice.ingest.Responses;
import io.sluice.projects.ProjectRegistry;

/** The gateway's pipeline, top to bottom as a request travels through it. */
final class GatewayInitializer extends ChannelInitializer<SocketChannel> {
    private static final int MAX_INITIAL_LINE = 8 * 1024;
    private static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int READ_TIMEOUT_SECONDS = 30;

    private final GatewayConfig config;
    private final Authenticator authenticator;
    private final BodyDecoder decoder;
    private final EventValidator validator;
    private final EventPublisher publisher;

    GatewayInitializer(GatewayConfig config, ProjectRegistry registry, EventPublisher publisher) {
        this.config = config;
        this.authenticator = new Authenticator(registry, Clock.systemUTC());
        this.decoder = new BodyDecoder(config.maxDecompressedBytes());
        this.validator = new EventValidator(config.eventTimeHorizon());
        this.publisher = publisher;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast("read-timeout", new ReadTimeoutHandler(READ_TIMEOUT_SECONDS));
        pipeline.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 8192));
        pipeline.addLast("keep-alive", new HttpServerKeepAliveHandler());
        pipeline.addLast("body-limit", new JsonBodyLimit(config.maxBodyBytes()));
        pipeline.addLast("ingest", new IngestHandler(authenticator, decoder, validator, publisher, Clock.systemUTC()));
    }

    /** Collects the body up to the limit; a larger one gets a JSON 413 and the connection closes. */
    private static final class JsonBodyLimit extends HttpObjectAggregator {
        JsonBodyLimit(int maxBodyBytes) {
            super(maxBodyBytes);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, io.netty.handler.codec.http.HttpMessage oversized) {
            ctx.writeAndFlush(Responses.error(new Rejection(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large",
                            "the request body is larger than " + maxContentLength() + " bytes")))
                    .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
    }
}
