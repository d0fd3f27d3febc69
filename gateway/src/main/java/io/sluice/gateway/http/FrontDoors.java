package io.sluice.gateway.http;

import java.util.EnumMap;
import java.util.Map;

import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.OtlpSignal;

/** Which {@link FrontDoor} a route comes in by: the one place a new door is routed to. */
final class FrontDoors {
    private final FrontDoor v1;
    private final FrontDoor sentryStore;
    private final FrontDoor sentryEnvelope;
    private final Map<OtlpSignal, FrontDoor> otlp = new EnumMap<>(OtlpSignal.class);

    FrontDoors(GatewayServices services) {
        this.v1 = new V1Door(services);
        this.sentryStore = new SentryStoreDoor(services);
        this.sentryEnvelope = new SentryEnvelopeDoor(services);
        for (OtlpSignal signal : OtlpSignal.values()) {
            otlp.put(signal, new OtlpDoor(services, signal));
        }
    }

    /**
     * @param route a request's route (a preflight's is its Sentry route's), or null when its path
     *              names none (its refusal is answered as v1's)
     */
    FrontDoor of(IngestRoute route) {
        IngestRoute posted = route instanceof IngestRoute.Preflight preflight ? preflight.of() : route;
        if (posted instanceof IngestRoute.Otlp export) {
            return otlp.get(export.signal());
        }
        if (posted instanceof IngestRoute.SentryStore) {
            return sentryStore;
        }
        if (posted instanceof IngestRoute.SentryEnvelope) {
            return sentryEnvelope;
        }
        return v1;
    }
}
