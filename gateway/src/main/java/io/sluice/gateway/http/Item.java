package io.sluice.gateway.http;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.outcomes.QualifiedOutcome;

/** One item of a request, as its {@link FrontDoor} found it, in the order sent. */
sealed interface Item {
    /** Payload bytes that reading this item costs, to slice a request's items over event-loop tasks. */
    long bytes();

    /**
     * An event of {@code endpoint}. Its payload is read ({@code payload}: the JSON to validate,
     * which may throw a {@link io.sluice.gateway.ingest.Rejection} that refuses the whole request,
     * or only this event when {@code refusedAlone}) only once the event took its quota: an event
     * over quota costs no parse. {@code part}: which part of its request it was made of (an OTLP
     * export's span, whose answer counts the spans not stored in full), or {@link #NO_PART}.
     */
    record Event(Endpoint endpoint, long bytes, Supplier<byte[]> payload, boolean refusedAlone, int part) implements Item {
        Event(Endpoint endpoint, long bytes, Supplier<byte[]> payload) {
            this(endpoint, bytes, payload, false, NO_PART);
        }
    }

    /**
     * An event already through the path's {@link EventCheck} (an OTLP span's, checked as its span
     * was mapped): valid, to be published; {@code part} as an {@link Event}'s.
     */
    record Accepted(Endpoint endpoint, AcceptedEvent event, int part) implements Item {
        @Override
        public long bytes() {
            return 0;
        }
    }

    /** The part of an item that is not part of anything its answer counts. */
    int NO_PART = -1;

    /**
     * What its door refused already (an OTLP span that cannot be read), or, with
     * {@link Event#refusedAlone}, an event whose payload the validator refused: the request's
     * other items stand, and its answer says how many were refused and why. {@code part} as an
     * {@link Event}'s.
     */
    record Refused(io.sluice.gateway.ingest.Rejection refusal, int part) implements Item {
        @Override
        public long bytes() {
            return 0;
        }
    }

    /**
     * An event, or a part of a request ({@code part} as an {@link Event}'s), its door found over its
     * project's quota before reading it (an OTLP span): counted and answered as an event over the
     * quota, with {@code limit}, the 429.
     */
    record OverQuota(io.sluice.gateway.ingest.Rejection limit, int part) implements Item {
        @Override
        public long bytes() {
            return 0;
        }
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
