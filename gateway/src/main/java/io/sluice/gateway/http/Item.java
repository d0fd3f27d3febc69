package io.sluice.gateway.http;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.sluice.gateway.admit.Endpoint;
import io.sluice.outcomes.QualifiedOutcome;

/** One item of a request, as its {@link FrontDoor} found it, in the order sent. */
sealed interface Item {
    /** Payload bytes that reading this item costs, to slice a request's items over event-loop tasks. */
    long bytes();

    /**
     * An event of {@code endpoint}. Its payload is read ({@code payload}: the JSON to validate,
     * which may throw a {@link io.sluice.gateway.admit.Rejection} that refuses the whole request)
     * only once the event took its quota: an event over quota costs no parse.
     */
    record Event(Endpoint endpoint, long bytes, Supplier<byte[]> payload) implements Item {
    }

    /**
     * Something not stored, only counted as outcomes: {@code addTo} adds its counts to those of
     * its request so far (client reports cap their sum over the request).
     */
    record Counted(Consumer<Map<QualifiedOutcome, Long>> addTo) implements Item {
        @Override
        public long bytes() {
            return 0;
        }
    }
}
