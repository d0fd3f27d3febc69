package io.sluice.gateway.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.outcomes.Outcome;

/** Each refusal's HTTP status follows from its outcome, as the API description gives them. */
class RejectionTest {
    @Test
    void everyRefusalHasItsStatus() {
        Map<Outcome, Integer> expected = new EnumMap<>(Map.ofEntries(
                Map.entry(Outcome.UNAUTHORIZED, 401), Map.entry(Outcome.KEY_OF_ANOTHER_PROJECT, 403),
                Map.entry(Outcome.PROJECT_DISABLED, 403), Map.entry(Outcome.QUOTA_EXCEEDED, 429),
                Map.entry(Outcome.TOO_MANY_FAILED_ATTEMPTS, 429), Map.entry(Outcome.NOT_FOUND, 404),
                Map.entry(Outcome.METHOD_NOT_ALLOWED, 405), Map.entry(Outcome.BAD_REQUEST, 400),
                Map.entry(Outcome.URI_TOO_LONG, 414), Map.entry(Outcome.HEADERS_TOO_LARGE, 431),
                Map.entry(Outcome.BODY_TOO_LARGE, 413), Map.entry(Outcome.REQUEST_TIMEOUT, 408),
                Map.entry(Outcome.UNSUPPORTED_MEDIA_TYPE, 415), Map.entry(Outcome.UNSUPPORTED_ENCODING, 415),
                Map.entry(Outcome.CORRUPT_BODY, 400), Map.entry(Outcome.INVALID_JSON, 400),
                Map.entry(Outcome.INVALID_FIELD, 400), Map.entry(Outcome.OVERLOADED, 503),
                Map.entry(Outcome.SHUTTING_DOWN, 503), Map.entry(Outcome.UNAVAILABLE, 503),
                Map.entry(Outcome.INVALID_ENVELOPE, 400), Map.entry(Outcome.ORIGIN_NOT_ALLOWED, 403),
                Map.entry(Outcome.PROJECT_UNAVAILABLE, 503), Map.entry(Outcome.CLIENT_GONE, 499)));
        Map<Outcome, Integer> actual = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            if (outcome != Outcome.ACCEPTED && outcome != Outcome.CLIENT_DISCARD && outcome != Outcome.UNSUPPORTED_ITEM
                    && outcome != Outcome.FILTERED && outcome != Outcome.INVALID_SAMPLE_RATE
                    && outcome != Outcome.CARDINALITY_LIMITED) {
                actual.put(outcome, new Rejection(outcome, "refused").status());
            }
        }
        assertEquals(expected, actual);
    }

    @Test
    void acceptedIsNoRefusal() {
        assertThrows(IllegalArgumentException.class, () -> new Rejection(Outcome.ACCEPTED, "fine"));
    }
}
