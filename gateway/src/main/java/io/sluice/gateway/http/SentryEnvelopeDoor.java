package io.sluice.gateway.http;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.sluice.events.SampleRate;
import io.sluice.events.SentryFields;
import io.sluice.events.SessionItems;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.envelope.ClientReports;
import io.sluice.gateway.envelope.Envelope;
import io.sluice.gateway.envelope.EventFields;
import io.sluice.gateway.envelope.ItemTypes;
import io.sluice.gateway.validate.EventId;

/**
 * A Sentry SDK's {@code /api/<id>/envelope/}: a header line, then items. Events, transactions and
 * session items ({@code session}, {@code sessions}) become events; client reports become outcomes ({@code client_discard:<reason>}); items Sluice
 * does not store are accepted and counted ({@code unsupported_item:<type>}), so an SDK never gets
 * 400 for a kind of item. An envelope whose only credential is the {@code dsn} in its header is
 * authenticated once its body is read, by the gate that authenticates every head. Answers as
 * {@link SentryDoor} says.
 */
final class SentryEnvelopeDoor extends SentryDoor {
    private final GatewayServices services;

    SentryEnvelopeDoor(GatewayServices services) {
        this.services = services;
    }

    @Override
    public Items read(Admitted admitted, FullHttpRequest request, long receivedAt) {
        Caller caller = Caller.of(admitted, request);
        checkContentType(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
        byte[] body = FrontDoor.decodedBody(services, admitted, request);
        Envelope envelope = services.envelopes().parse(body);
        Admitted authenticated = services.gate().authenticateEnvelope(admitted, envelope.headerText("dsn"), caller.origin());
        return new Items(authenticated, new Caller(authenticated.dsnKey(), caller.origin()), items(envelope));
    }

    private static List<Item> items(Envelope envelope) {
        long events = envelope.items().stream().filter(item -> isEvent(item.type())).count();
        // The header's event id is the event's when the envelope has just one that names none:
        // a retried envelope then deduplicates.
        EventId headerId = events == 1 ? EventId.parse(envelope.headerText("event_id")) : null;
        // The trace's sample rate (the dynamic sampling context) travels with each transaction as its sample_rate.
        JsonNode sampleRate = envelope.header().path("trace").path(SampleRate.FIELD);
        // So does its release, with each event that names none.
        JsonNode release = envelope.header().path("trace").path(SentryFields.RELEASE);
        List<Item> items = new ArrayList<>(envelope.items().size());
        for (Envelope.Item item : envelope.items()) {
            if (item.type().equals("client_report")) {
                items.add(new Item.Counted(counted -> ClientReports.count(item, counted)));
            } else if (item.type().equals(SessionItems.SESSION) || item.type().equals(SessionItems.SESSIONS)) {
                // Refused alone when invalid: an SDK sends its session updates beside its events.
                items.add(new Item.Event(Endpoint.SESSION, item.length(), item::payload, true, Item.NO_PART));
            } else if (!isEvent(item.type())) {
                items.add(new Item.Counted(counted -> counted.merge(ItemTypes.unsupported(item.type()), ItemTypes.count(item),
                        Long::sum)));
            } else {
                Endpoint endpoint = item.type().equals("transaction") ? Endpoint.TRANSACTION : Endpoint.ERROR_REPORT;
                JsonNode rate = endpoint == Endpoint.TRANSACTION ? sampleRate : MissingNode.getInstance();
                items.add(new Item.Event(endpoint, item.length(), () -> payload(item, headerId, rate, release)));
            }
        }
        return items;
    }

    /**
     * @param sampleRate the envelope's, for a transaction; missing for none
     * @param release    the envelope's; missing for none
     */
    private static byte[] payload(Envelope.Item item, EventId headerId, JsonNode sampleRate, JsonNode release) {
        byte[] json = item.payload();
        EventFields fields = single(EventFields.scan(json));
        json = headerId != null && !fields.hasEventId() ? fields.withEventId(json, headerId.hex()) : json;
        json = SentryFields.isAbsent(sampleRate) ? json : fields.withSampleRate(json, sampleRate);
        return fields.withRelease(json, release);
    }

    private static boolean isEvent(String type) {
        return type.equals("event") || type.equals("transaction");
    }
}
