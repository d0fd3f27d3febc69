package io.sluice.gateway.http;

import java.util.List;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Collects an admitted request's body up to its route's limit, taking its bytes from the request's
 * in-flight reservation as they arrive (so a request holds what it has sent, never what its head
 * announced), and passes it on as an {@link AdmittedRequest}. Writes no answer itself, so that
 * answers go out in request order: a body declared too large is refused by {@link Admission} from
 * the head, and a body that grows beyond the limit (no declared size), or whose next bytes no
 * longer fit the budget, is passed on as a {@link RefusedRequest}, for the ingest handler to answer
 * in its turn; nothing after it on the connection is taken on. Frees no reservation: the ingest
 * handler holds them.
 */
final class BodyLimit extends HttpObjectAggregator {
    /** The request being received (null once refused or passed on), and its bytes so far. */
    private Admitted receiving;
    private HttpRequest head;
    private long received;
    /** A body was refused: the rest of it, and everything after it, is discarded unread. */
    private boolean discarding;

    /**
     * @param maxBodyBytes the largest body of any route; each request is held to its own limit.
     *                     "100 Continue" is the ingest handler's, which knows when earlier requests are answered.
     */
    BodyLimit(int maxBodyBytes) {
        super(maxBodyBytes);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
        if (discarding) {
            if (message instanceof HttpObject) {
                ReferenceCountUtil.release(message);
            } else {
                ctx.fireChannelRead(message); // a request's admission: the ingest handler frees what it holds
            }
            return;
        }
        if (message instanceof AdmittedHead admittedHead) {
            receiving = admittedHead.admitted();
            head = admittedHead.head();
            received = 0;
            ctx.fireChannelRead(admittedHead); // its reservation is the ingest handler's from here
            super.channelRead(ctx, head);
            return;
        }
        if (message instanceof HttpContent content && receiving != null) {
            Rejection refused = take(content.content().readableBytes());
            if (refused != null) {
                content.release();
                refuse(ctx, refused);
                return;
            }
        }
        super.channelRead(ctx, message);
    }

    /** The aggregator's whole request, passed on with its admission. */
    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject message, List<Object> out) throws Exception {
        super.decode(ctx, message, out);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) instanceof FullHttpRequest request) {
                out.set(i, new AdmittedRequest(receiving, request));
                receiving = null;
            }
        }
    }

    /** Takes arriving bytes from the request's reservation: null, or why they cannot be taken. */
    private Rejection take(int bytes) {
        received += bytes;
        if (received > receiving.maxBodyBytes()) {
            return tooLarge(receiving.maxBodyBytes());
        }
        try {
            receiving.reservation().extend(bytes);
            return null;
        } catch (Rejection refused) {
            return refused;
        }
    }

    private static Rejection tooLarge(long limit) {
        return new Rejection(Outcome.BODY_TOO_LARGE, "the request body is larger than " + limit + " bytes");
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        return null;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        refuse(ctx, tooLarge(maxContentLength()));
    }

    /**
     * The request being received, refused: passed on to be answered in its turn, its partial body
     * freed, and nothing more on this connection is taken on.
     */
    private void refuse(ChannelHandlerContext ctx, Rejection reason) {
        Admitted refused = receiving;
        if (refused == null) { // cannot happen: every head passes admission first
            ctx.close();
            return;
        }
        receiving = null;
        discarding = true;
        // What arrived of it goes now, with the budget's bytes, not when the connection closes.
        releaseCurrentMessage();
        ctx.pipeline().fireUserEventTriggered(TakingNoMore.EVENT);
        ctx.fireChannelRead(new RefusedRequest(refused.route(), refused.token(), refused, reason,
                FrontDoor.Caller.of(refused, head), System.nanoTime()));
    }
}
