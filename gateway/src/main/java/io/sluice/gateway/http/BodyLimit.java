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
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Collects the body up to the limit, taking its bytes from the request's in-flight reservation as
 * they arrive (so a request holds what it has sent, never what its head announced). Writes no
 * final answer itself, so that answers go out in request order: a body declared too large is
 * refused by {@link Admission} from the head, and a body that grows beyond the limit (no declared
 * size), or whose next bytes no longer fit the budget, is passed on as {@link Refused}, for the
 * ingest handler to refuse in its turn; nothing after it on the connection is taken on.
 */
final class BodyLimit extends HttpObjectAggregator {
    /**
     * Passed on in place of a request refused while its body arrived: 413, or 503 when its bytes did
     * not fit. {@code caller}: as its head told, so that the refusal is answered as one from the head
     * is (an OTLP export's in its own encoding).
     */
    record Refused(Rejection reason, FrontDoor.Caller caller) {
    }

    private final Admission admission;
    /**
     * The request being received (null once refused): its reservation, its head (which tells how to
     * answer its refusal), its limit (its route's) and its bytes so far.
     */
    private InFlightBudget.Reservation reservation;
    private Admitted admitted;
    private HttpRequest head;
    private long limit;
    private long received;

    /** @param maxBodyBytes the largest body of any route; each request is held to its own limit */
    BodyLimit(int maxBodyBytes, Admission admission) {
        super(maxBodyBytes);
        this.admission = admission;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
        if (message instanceof HttpRequest request) {
            admitted = admission.receiving();
            head = request;
            reservation = admitted.reservation();
            limit = admitted.maxBodyBytes();
            received = 0;
        }
        if (message instanceof HttpContent content && reservation != null) {
            Rejection refused = take(content.content().readableBytes());
            if (refused != null) {
                // As the aggregator does at its own limit: nothing more on this connection is taken
                // on (the request's partial body is freed when the connection closes).
                content.release();
                ctx.fireChannelRead(refuse(refused));
                return;
            }
        }
        super.channelRead(ctx, message);
    }

    /** Takes arriving bytes from the request's reservation: null, or why they cannot be taken. */
    private Rejection take(int bytes) {
        received += bytes;
        if (received > limit) {
            return tooLarge(limit);
        }
        try {
            reservation.extend(bytes);
            return null;
        } catch (Rejection refused) {
            return refused;
        }
    }

    private static Rejection tooLarge(long limit) {
        return new Rejection(Outcome.BODY_TOO_LARGE, "the request body is larger than " + limit + " bytes");
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
        ctx.fireChannelRead(refuse(tooLarge(maxContentLength()))); // the aggregator discards the rest of this body meanwhile
    }

    /** The request being received, refused: nothing more on this connection is taken on. */
    private Refused refuse(Rejection reason) {
        admission.takeNoMore();
        reservation = null;
        return new Refused(reason, FrontDoor.Caller.of(admitted, head));
    }
}
