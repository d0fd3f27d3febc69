package io.sluice.gateway.http;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayTls;
import io.sluice.gateway.admit.Authenticator;
import io.sluice.gateway.admit.FailedAuthLimiter;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.IngestRoute;
import io.sluice.gateway.admit.QuotaLimiter;
import io.sluice.gateway.admit.Rejection;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.gateway.publish.Outcomes;
import io.sluice.gateway.validate.BodyDecoder;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.projects.ProjectRegistry;

/** The gateway's pipeline, top to bottom as a request travels through it. */
public final class GatewayInitializer extends ChannelInitializer<SocketChannel> {
    static final int MAX_INITIAL_LINE_BYTES = 8 * 1024;
    static final int MAX_HEADER_BYTES = 16 * 1024;

    private final GatewayConfig config;
    private final Admission.Limits limits;
    private final Admission.Gate gate;
    private final GatewayMetrics metrics;
    private final QuotaLimiter quotas;
    private final SslContext tls;
    private final Outcomes outcomes;
    private final AtomicBoolean draining;
    private final BodyDecoder decoder;
    private final EventValidator validator;
    private final EventPublisher publisher;

    public GatewayInitializer(GatewayConfig config, ProjectRegistry registry, EventPublisher publisher,
                       GatewayMetrics metrics, Outcomes outcomes, AtomicBoolean draining) {
        this.config = config;
        this.limits = new Admission.Limits(config.maxConnections(), config.maxBodyBytes());
        this.gate = new Admission.Gate(new Authenticator(registry, Clock.systemUTC()),
                new FailedAuthLimiter(config.authFailuresPerMinute(), config.authFailureBurst()), config.trustedProxies(),
                new InFlightBudget(config.maxInFlightBytes(), config.maxInFlightBytesPerClient(), metrics.inFlightBytes()));
        this.metrics = metrics;
        this.quotas = new QuotaLimiter(config.quotaShare());
        this.tls = GatewayTls.context(config);
        this.outcomes = outcomes;
        this.draining = draining;
        this.decoder = new BodyDecoder(config.maxDecompressedBytes());
        this.validator = new EventValidator(config.eventTimeHorizon());
        this.publisher = publisher;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(channel.alloc()));
        }
        pipeline.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE_BYTES, MAX_HEADER_BYTES, 16 * 1024));
        pipeline.addLast("timeouts", new ReceiveTimeouts(config.idleTimeout(), config.receiveTimeout()));
        Admission admission = new Admission(limits, gate, metrics, outcomes, draining);
        pipeline.addLast("admission", admission);
        pipeline.addLast("body", new JsonBodyLimit(config.maxBodyBytes(), metrics, outcomes));
        pipeline.addLast("ingest", new IngestHandler(admission, decoder, validator, publisher, Clock.systemUTC(),
                metrics, quotas, outcomes, draining));
    }

    /** Collects the body up to the limit; a larger one gets a JSON 413 and the connection closes. */
    private static final class JsonBodyLimit extends HttpObjectAggregator {
        private final GatewayMetrics metrics;
        private final Outcomes outcomes;

        JsonBodyLimit(int maxBodyBytes, GatewayMetrics metrics, Outcomes outcomes) {
            super(maxBodyBytes);
            this.metrics = metrics;
            this.outcomes = outcomes;
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            metrics.rejected("body_too_large");
            outcomes.record(oversized instanceof io.netty.handler.codec.http.HttpRequest request
                    ? IngestRoute.tokenOf(request.uri()) : null, "body_too_large");
            // The aggregator discards the rest of this body meanwhile.
            Responses.refuseAndClose(ctx, Responses.error(new Rejection(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "body_too_large", "the request body is larger than " + maxContentLength() + " bytes")));
        }
    }
}
