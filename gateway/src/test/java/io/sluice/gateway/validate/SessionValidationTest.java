package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/** What the gateway takes of a Sentry session item, and what it refuses item by item. */
class SessionValidationTest {
    private static final EventValidator VALIDATOR = new EventValidator(Duration.ofHours(24));
    private static final Instant NOW = Instant.parse("2026-12-07T08:00:00Z");
    private static final String RELEASE = "\"attrs\": {\"release\": \"shop@1.2.0\", \"environment\": \"production\"}";

    @Test
    void aSessionUpdateTakesItsSessionsIdSoEveryUpdateOfItLandsInOnePartition() {
        AcceptedEvent first = validate("{\"sid\": \"0F5D2F9C-6C3F-4B7E-9A51-2B7D6F0C1A11\", \"init\": true, \"started\": \"2026-12-07T07:30:00Z\", "
                + RELEASE + "}");
        AcceptedEvent later = validate("{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"status\": \"crashed\", \"errors\": 1, "
                + "\"started\": \"2026-12-07T07:30:00Z\", " + RELEASE + "}");
        assertEquals("0f5d2f9c6c3f4b7e9a512b7d6f0c1a11", first.eventId());
        assertEquals(first.eventId(), later.eventId());
    }

    @Test
    void aSessionIsTimedWhenItStarted() {
        AcceptedEvent session = validate("{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, "
                + "\"started\": \"2026-12-07T07:30:00Z\", \"timestamp\": \"2026-12-07T07:59:00Z\", " + RELEASE + "}");
        assertEquals(Instant.parse("2026-12-07T07:30:00Z").toEpochMilli(), session.eventTimeMillis());
    }

    @Test
    void anAggregatesIdIsDerivedFromItsBytesSoARetryHasTheSame() {
        String json = "{" + RELEASE + ", \"aggregates\": [{\"started\": \"2026-12-07T07:00:00Z\", \"exited\": 3}]}";
        String other = "{" + RELEASE + ", \"aggregates\": [{\"started\": \"2026-12-07T07:00:00Z\", \"exited\": 4}]}";
        assertEquals(validate(json).eventId(), validate(json).eventId());
        assertNotEquals(validate(json).eventId(), validate(other).eventId());
        assertEquals(32, validate(json).eventId().length());
    }

    @Test
    void aSessionWithoutAReleaseIsRefusedNamingTheField() {
        assertEquals("attrs.release", refused("{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, "
                + "\"started\": \"2026-12-07T07:30:00Z\", \"attrs\": {\"environment\": \"production\"}}").field());
    }

    @Test
    void aSessionOfAnUnknownStatusIsTaken() {
        assertEquals("0f5d2f9c6c3f4b7e9a512b7d6f0c1a11", validate("{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", "
                + "\"status\": \"unhandled\", \"started\": \"2026-12-07T07:30:00Z\", " + RELEASE + "}").eventId());
    }

    @Test
    void aSessionUpdateWithoutASessionIdIsRefused() {
        assertEquals("sid", refused("{\"init\": true, \"started\": \"2026-12-07T07:30:00Z\", " + RELEASE + "}").field());
    }

    @Test
    void aNegativeCountOfAnAggregateIsRefused() {
        assertEquals("crashed", refused("{" + RELEASE + ", \"aggregates\": [{\"started\": \"2026-12-07T07:00:00Z\", \"exited\": 3, "
                + "\"crashed\": -1}]}").field());
    }

    @Test
    void aSessionStartedMoreThanAMinuteAheadIsRefused() {
        assertEquals("started", refused("{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, "
                + "\"started\": \"2026-12-07T08:01:01Z\", " + RELEASE + "}").field());
    }

    @Test
    void aSessionStartedBeforeTheHorizonIsRefusedNotReTimed() {
        assertEquals("started", refused("{" + RELEASE + ", \"aggregates\": [{\"started\": \"2026-12-06T07:59:00Z\", \"exited\": 3}]}")
                .field());
    }

    private static AcceptedEvent validate(String json) {
        return VALIDATOR.validate(Endpoint.SESSION, json.getBytes(StandardCharsets.UTF_8), NOW.toEpochMilli());
    }

    private static Rejection refused(String json) {
        Rejection refused = assertThrows(Rejection.class, () -> validate(json));
        assertEquals(Outcome.INVALID_FIELD, refused.outcome());
        return refused;
    }
}
