package io.sluice.gateway.http;

import java.util.Locale;

import io.netty.handler.codec.http.FullHttpResponse;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.envelope.EventFields;
import io.sluice.outcomes.Outcome;

/**
 * What the two Sentry doors ({@link SentryStoreDoor}, {@link SentryEnvelopeDoor}) share: the
 * content types SDKs send, and the answers they read. Every
 * answer carries CORS headers (browser SDKs read them), and one with events over quota carries
 * {@code X-Sentry-Rate-Limits}. The answer is 200 only once Kafka acknowledged every published
 * event; a failure is 503 and a retry is safe (the events keep their ids). A request whose events
 * are all over quota gets 429. The answer's {@code id} is that of the first event published, or
 * absent when none was.
 */
abstract class SentryDoor implements FrontDoor {
    @Override
    public final FullHttpResponse answer(Handled handled, Caller caller) {
        if (handled.unconfirmed()) {
            return Cors.apply(Responses.publishUnconfirmed(handled.firstEventId()), caller.key(), caller.origin());
        }
        Rejection limited = handled.limited();
        if (limited != null && handled.published() == 0) {
            return refusal(limited, caller);
        }
        FullHttpResponse response = Responses.acceptedEnvelope(handled.firstEventId());
        if (limited != null) {
            response.headers().set(Responses.SENTRY_RATE_LIMITS, limited.sentryRateLimits());
        }
        return Cors.apply(response, caller.key(), caller.origin());
    }

    @Override
    public final FullHttpResponse refusal(Rejection refusal, Caller caller) {
        return Cors.apply(Responses.sentryError(refusal), caller.key(), caller.origin());
    }

    /** An event must be one JSON object: something after it (another envelope's lines, say) would be published with it. */
    static EventFields single(EventFields fields) {
        if (fields.trailingContent()) {
            throw new Rejection(Outcome.INVALID_JSON, "an event must be one JSON object; something follows it");
        }
        return fields;
    }

    /**
     * Bodies as SDKs send them: application/x-sentry-envelope, application/json,
     * text/plain (browsers, to avoid a preflight), application/octet-stream or none.
     */
    static void checkContentType(String contentType) {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        switch (mediaType) {
            case "", "application/x-sentry-envelope", "application/json", "text/plain", "application/octet-stream" -> {
            }
            default -> throw new Rejection(Outcome.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/x-sentry-envelope, "
                    + "application/json or text/plain, got '" + contentType + "'");
        }
    }
}
