package io.sluice.gateway.http;

import java.util.List;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * {@code /api/v1/<token>/transaction} and {@code /project}: one JSON event per request, with the
 * project's private key. Its head took the event's whole quota. Answers {@code {"id"}}, or the
 * error JSON.
 */
final class V1Door implements FrontDoor {
    private final GatewayServices services;

    V1Door(GatewayServices services) {
        this.services = services;
    }

    @Override
    public Items read(Admitted admitted, FullHttpRequest request, long receivedAt) {
        requireJson(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
        byte[] json = FrontDoor.decodedBody(services, admitted, request);
        Item event = new Item.Event(admitted.route().endpoint(), json.length, () -> json);
        return new Items(admitted, Caller.UNKNOWN, List.of(event));
    }

    @Override
    public FullHttpResponse answer(Handled handled, Caller caller) {
        if (handled.unconfirmed()) {
            return Responses.publishUnconfirmed(handled.firstEventId());
        }
        // The head took this door's one event's quota: none can be limited here.
        return handled.published() == 0 && handled.limited() != null ? Responses.error(handled.limited())
                : Responses.accepted(handled.firstEventId());
    }

    @Override
    public FullHttpResponse refusal(Rejection refusal, Caller caller) {
        return Responses.error(refusal);
    }

    private static void requireJson(String contentType) {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip();
        if (!mediaType.equalsIgnoreCase("application/json")) {
            throw new Rejection(Outcome.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type must be application/json, got '" + (contentType == null ? "" : contentType) + "'");
        }
    }
}
