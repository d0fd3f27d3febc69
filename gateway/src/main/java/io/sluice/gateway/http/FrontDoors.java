package io.sluice.gateway.http;

import java.util.EnumMap;
import java.util.Map;

import io.sluice.gateway.ingest.Door;
import io.sluice.gateway.ingest.IngestRoute;
import io.sluice.gateway.ingest.OtlpSignal;

/** The {@link FrontDoor} of each {@link Door}, built once per gateway: the one place a new door is built. */
final class FrontDoors {
    private final Map<Door, FrontDoor> doors = new EnumMap<>(Door.class);

    FrontDoors(GatewayServices services) {
        for (Door door : Door.values()) {
            doors.put(door, build(door, services));
        }
    }

    private static FrontDoor build(Door door, GatewayServices services) {
        return switch (door) {
            case V1 -> new V1Door(services);
            case SENTRY_STORE -> new SentryStoreDoor(services);
            case SENTRY_ENVELOPE -> new SentryEnvelopeDoor(services);
            case OTLP_TRACES -> new OtlpDoor(services, OtlpSignal.TRACES);
            case OTLP_LOGS -> new OtlpDoor(services, OtlpSignal.LOGS);
            case OTLP_METRICS -> new OtlpDoor(services, OtlpSignal.METRICS);
        };
    }

    /**
     * @param route a request's route (a preflight's is its Sentry route's), or null when its path
     *              names none (its refusal is answered as v1's)
     */
    FrontDoor of(IngestRoute route) {
        return doors.get(route == null ? Door.V1 : route.door());
    }
}
