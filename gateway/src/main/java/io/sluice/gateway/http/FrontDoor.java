package io.sluice.gateway.http;

import java.util.List;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.projects.DsnKey;
import io.sluice.projects.Project;

/**
 * Where a kind of request plugs into the one ingest path ({@link IngestPath}): a door turns its
 * request into {@link Items} and writes its own answers; the path does the rest for every door
 * alike (each event's quota before its payload is parsed, validation, publishing, outcomes).
 * Doors: {@link V1Door} ({@code /api/v1/<token>/transaction|project}), {@link SentryStoreDoor},
 * {@link SentryEnvelopeDoor}, {@link OtlpDoor}, each the door of an {@link io.sluice.gateway.ingest.IngestRoute}
 * record, which carries the door's rules (body limit, head quota); {@link FrontDoors#of} routes to each.
 */
interface FrontDoor {
    /**
     * The request's items, read on its event loop; a {@link Rejection} thrown refuses the whole
     * request. The body is read here: the request is released once this returns.
     */
    Items read(Admitted admitted, FullHttpRequest request, long receivedAt);

    /** The answer once the request's items were handled (its events published, or none). */
    FullHttpResponse answer(Handled handled, Caller caller);

    /** The answer refusing the whole request. */
    FullHttpResponse refusal(Rejection refusal, Caller caller);

    /**
     * The request's body, decompressed within its route's limit ({@link io.sluice.gateway.ingest.IngestRoute#bodySize})
     * and its in-flight reservation.
     */
    static byte[] decodedBody(GatewayServices services, Admitted admitted, FullHttpRequest request) {
        return services.decoder(admitted.route().bodySize())
                .decode(request.content(), request.headers().get(HttpHeaderNames.CONTENT_ENCODING), admitted.reservation());
    }

    /**
     * Who sent the request, as far as the answers need: the DSN key and browser origin (CORS), and
     * its Content-Type (OTLP answers in the request's encoding); each may be null.
     */
    record Caller(DsnKey key, String origin, String contentType) {
        static final Caller UNKNOWN = new Caller(null, null, null);

        Caller(DsnKey key, String origin) {
            this(key, origin, null);
        }

        /** As the request's head tells: the DSN key it authenticated with (or null), its Origin and Content-Type. */
        static Caller of(Admitted admitted, io.netty.handler.codec.http.HttpRequest request) {
            return ofHead(admitted.dsnKey(), request);
        }

        /** @param key the DSN key the request authenticated with, or null (not one, or refused before it was checked) */
        static Caller ofHead(DsnKey key, io.netty.handler.codec.http.HttpRequest head) {
            return new Caller(key, head.headers().get(HttpHeaderNames.ORIGIN), head.headers().get(HttpHeaderNames.CONTENT_TYPE));
        }
    }

    /**
     * A request's items, read: whose they are and what they take of the quota (its admission, its
     * project known by now) and who sent them.
     */
    record Items(Admitted admitted, Caller caller, List<Item> items) {
        Project project() {
            return admitted.project();
        }
    }

    /**
     * What became of a request's items.
     *
     * @param firstEventId the id of the first event published, or null when none was
     * @param published    events published (and, unless {@code unconfirmed}, acknowledged)
     * @param overQuota    events not published for their quota (an OTLP answer names them as rejected)
     * @param limited      the 429 of the events over quota (merged), or null when none was
     * @param unconfirmed  Kafka did not acknowledge every event published (a retry is safe)
     * @param refused      items refused alone ({@link Item.Refused}, {@link Item.Event#refusedAlone})
     * @param firstRefusal why the first of them was, or null when none was
     * @param rejectedParts the parts of the request ({@link Item.Event#part}: an OTLP export's spans) with an item
     *                      refused or over quota
     */
    record Handled(String firstEventId, int published, int overQuota, Rejection limited, boolean unconfirmed, int refused,
                   String firstRefusal, int rejectedParts) {
    }
}
