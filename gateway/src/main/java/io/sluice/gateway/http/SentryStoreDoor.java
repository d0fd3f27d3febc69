package io.sluice.gateway.http;

import java.util.List;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.envelope.EventFields;

/**
 * A Sentry SDK's {@code /api/<id>/store/}: one event JSON, a transaction when its {@code type}
 * says so. Its project is known from its head (a DSN key), which took the project's share of the
 * quota. Answers as {@link SentryDoor} says.
 */
final class SentryStoreDoor extends SentryDoor {
    private final GatewayServices services;

    SentryStoreDoor(GatewayServices services) {
        this.services = services;
    }

    @Override
    public Items read(Admitted admitted, FullHttpRequest request, long receivedAt) {
        checkContentType(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
        byte[] json = FrontDoor.decodedBody(services, admitted, request);
        EventFields fields = single(EventFields.scan(json));
        Endpoint endpoint = "transaction".equals(fields.type()) ? Endpoint.TRANSACTION : Endpoint.ERROR_REPORT;
        return new Items(admitted, Caller.of(admitted, request),
                List.of(new Item.Event(endpoint, json.length, () -> json)));
    }
}
