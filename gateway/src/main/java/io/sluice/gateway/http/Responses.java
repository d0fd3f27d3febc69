package io.sluice.gateway.http;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/** Every answer the gateway gives is JSON; errors are {@code {"error", "message"[, "field"][, "limit"]}}. */
public final class Responses {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Responses() {
    }

    public static FullHttpResponse accepted(String eventId) {
        return json(HttpResponseStatus.OK, JSON.createObjectNode().put("id", eventId));
    }

    /** An envelope taken: {@code {"id": <event id>}} of its first event published, or {@code {}} when none was. */
    public static FullHttpResponse acceptedEnvelope(String eventId) {
        ObjectNode body = JSON.createObjectNode();
        if (eventId != null) {
            body.put("id", eventId);
        }
        return json(HttpResponseStatus.OK, body);
    }

    public static FullHttpResponse error(Rejection rejection) {
        ObjectNode body = JSON.createObjectNode()
                .put("error", rejection.code())
                .put("message", rejection.getMessage());
        if (rejection.field() != null) {
            body.put("field", rejection.field());
        }
        if (rejection.limit() != null) {
            body.put("limit", rejection.limit());
        }
        return refusal(rejection, body);
    }

    /**
     * The answer refusing with {@code rejection}, its body in the door's encoding: its status, and
     * what every door's refusal carries alike, {@code Retry-After} on a 429 or 503 (clients and
     * exporters retry by it) and {@code Allow} on a 405.
     */
    public static FullHttpResponse refusal(Rejection rejection, byte[] body, CharSequence contentType) {
        HttpResponseStatus status = HttpResponseStatus.valueOf(rejection.status());
        FullHttpResponse response = response(status, body, contentType);
        if (status.equals(HttpResponseStatus.METHOD_NOT_ALLOWED)) {
            response.headers().set(HttpHeaderNames.ALLOW, "POST");
        }
        if (status.equals(HttpResponseStatus.SERVICE_UNAVAILABLE) || status.equals(HttpResponseStatus.TOO_MANY_REQUESTS)) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, Long.toString(rejection.retryAfterSeconds()));
        }
        return response;
    }

    private static FullHttpResponse refusal(Rejection rejection, ObjectNode body) {
        return refusal(rejection, body.toString().getBytes(StandardCharsets.UTF_8), HttpHeaderValues.APPLICATION_JSON);
    }

    /** An error on the Sentry endpoints: with {@code X-Sentry-Rate-Limits} when it is a quota's 429. */
    public static FullHttpResponse sentryError(Rejection rejection) {
        FullHttpResponse response = error(rejection);
        if (rejection.sentryRateLimits() != null) {
            response.headers().set(SENTRY_RATE_LIMITS, rejection.sentryRateLimits());
        }
        return response;
    }

    /** The header that tells a Sentry SDK which categories to hold back, and for how long. */
    public static final String SENTRY_RATE_LIMITS = "X-Sentry-Rate-Limits";

    /** The code and message of a publish that Kafka did not acknowledge in time. */
    public static final Rejection PUBLISH_UNCONFIRMED = new Rejection(Outcome.UNAVAILABLE,
            "the event may or may not have been stored; retry with the same event_id (given here as 'id') to have it counted once");

    /**
     * A publish Kafka did not confirm in time: the record may still be written afterwards, so the
     * answer never says "not stored", and it carries the event id the gateway used, so that a
     * client that sent none can retry with it as {@code event_id} and be counted once.
     */
    public static FullHttpResponse publishUnconfirmed(String eventId) {
        return refusal(PUBLISH_UNCONFIRMED, JSON.createObjectNode()
                .put("error", PUBLISH_UNCONFIRMED.code())
                .put("message", PUBLISH_UNCONFIRMED.getMessage())
                .put("id", eventId));
    }

    /** How long a refused connection keeps reading (and discarding) before it closes. */
    private static final long LINGER_MILLIS = 1_000;

    /**
     * Answers and closes the connection a moment later, reading and discarding meanwhile. Closing
     * at once while the client still sends its body would reset the connection (TCP RST on unread
     * input), and the client could lose the answer it is owed.
     */
    public static void answerAndClose(io.netty.channel.ChannelHandlerContext ctx, FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(written -> ctx.executor()
                .schedule(() -> ctx.close(), LINGER_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    public static FullHttpResponse json(HttpResponseStatus status, ObjectNode body) {
        return response(status, body.toString().getBytes(StandardCharsets.UTF_8), HttpHeaderValues.APPLICATION_JSON);
    }

    /** An answer of {@code status} whose body is {@code body}, of {@code contentType}. */
    public static FullHttpResponse response(HttpResponseStatus status, byte[] body, CharSequence contentType) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType).setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }
}
