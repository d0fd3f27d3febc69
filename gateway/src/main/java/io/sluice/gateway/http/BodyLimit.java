package io.sluice.gateway.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Collects the body up to the limit. Writes no final answer itself, so that answers go out in
 * request order: a body declared too large is refused by {@link Admission} from the head, and a
 * body that grows beyond the limit (no declared size) is passed on as {@link Oversized}, for the
 * ingest handler to refuse in its turn; nothing after it on the connection is taken on.
 */
final class BodyLimit extends HttpObjectAggregator {
    /** Passed on in place of a request whose body grew beyond {@code limit} bytes. */
    record Oversized(int limit) {
    }

    private final Admission admission;
    /** The limit of the request being received (its route's, within its reservation), and its bytes so far. */
    private long limit;
    private long received;

    /** @param maxBodyBytes the largest body of any route; each request is held to its own limit */
    BodyLimit(int maxBodyBytes, Admission admission) {
        super(maxBodyBytes);
        this.admission = admission;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
        if (message instanceof HttpRequest) {
            limit = admission.receivingLimit();
            received = 0;
        }
        if (message instanceof HttpContent content && limit < maxContentLength()) {
            received += content.content().readableBytes();
            if (received > limit) {
                // As the aggregator does at its own limit: nothing more on this connection is taken
                // on (the request's partial body is freed when the connection closes).
                content.release();
                admission.takeNoMore();
                ctx.fireChannelRead(new Oversized((int) limit));
                limit = Long.MAX_VALUE;
                return;
            }
        }
        super.channelRead(ctx, message);
    }

    /**
     * "100 Continue" only when every earlier request on the connection is answered: sent sooner,
     * the client would take it for the answer to an earlier one. Then the client sends its body
     * when its own wait is over (RFC 9110 §10.1.1 has it not wait for ever). Other expectations
     * are ignored, as RFC 9110 allows.
     */
    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        return HttpUtil.is100ContinueExpected(start) && admission.nextInLine()
                ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER)
                : null;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        admission.takeNoMore(); // the aggregator discards the rest of this body meanwhile
        ctx.fireChannelRead(new Oversized(maxContentLength()));
    }
}
