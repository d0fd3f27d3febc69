package io.sluice.gateway.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.sluice.gateway.admit.IngestRoute;
import io.sluice.gateway.admit.Rejection;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.publish.Outcomes;
import io.sluice.outcomes.Outcome;

/** Collects the body up to the limit; a larger one gets a JSON 413 and the connection closes. */
final class BodyLimit extends HttpObjectAggregator {
    private final GatewayMetrics metrics;
    private final Outcomes outcomes;

    BodyLimit(int maxBodyBytes, GatewayMetrics metrics, Outcomes outcomes) {
        super(maxBodyBytes);
        this.metrics = metrics;
        this.outcomes = outcomes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        metrics.rejected(Outcome.BODY_TOO_LARGE);
        outcomes.record(oversized instanceof HttpRequest request ? IngestRoute.tokenOf(request.uri()) : null,
                Outcome.BODY_TOO_LARGE);
        // The aggregator discards the rest of this body meanwhile.
        Responses.refuseAndClose(ctx, Responses.error(new Rejection(Outcome.BODY_TOO_LARGE,
                "the request body is larger than " + maxContentLength() + " bytes")));
    }
}
