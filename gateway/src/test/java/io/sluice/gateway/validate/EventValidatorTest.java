package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;

class EventValidatorTest {
    private static final long RECEIVED = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
    private static final EventValidator VALIDATOR = new EventValidator(Duration.ofHours(24));

    private static AcceptedEvent transaction(String extraFields) {
        String json = "{\"transaction\": \"GET /\"" + (extraFields.isEmpty() ? "" : ", " + extraFields) + "}";
        return VALIDATOR.validate(Endpoint.TRANSACTION, json.getBytes(StandardCharsets.UTF_8), RECEIVED);
    }

    @Test
    void theFieldsHeaderAndThePublishedBytesAreReadFromTheScrubbedEvent() {
        AcceptedEvent event = transaction("\"contexts\": {\"trace\": {\"data\": {\"url\": \"https://a.example/r?token=SECRET1\"}}}");
        String fields = new String(event.fields(), StandardCharsets.UTF_8);
        assertTrue(fields.contains("https://a.example/r?token=[Filtered]"), fields);
        assertFalse(fields.contains("SECRET1"), fields);
        assertFalse(new String(event.json(), StandardCharsets.UTF_8).contains("SECRET1"));
    }

    @Test
    void aProjectThatOptedOutHasItsEventReadAndPublishedAsSent() {
        // Padded: a fields header larger than its JSON is not sent.
        byte[] sent = ("{\"transaction\": \"GET /r?token=SECRET1\", \"extra\": {\"pad\": \"" + "x".repeat(300) + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
        AcceptedEvent event = VALIDATOR.validate(Endpoint.TRANSACTION, sent, RECEIVED,
                new io.sluice.projects.DataScrubbing(true, java.util.List.of()));
        assertTrue(new String(event.fields(), StandardCharsets.UTF_8).contains("GET /r?token=SECRET1"));
        assertSame(sent, event.json());
    }

    @Test
    void isoTimeWithOffsetIsKept() {
        AcceptedEvent event = transaction("\"sent_at\": \"2026-11-22T12:30:00.250+01:00\"");
        assertEquals(Instant.parse("2026-11-22T11:30:00.250Z").toEpochMilli(), event.eventTimeMillis());
        assertFalse(event.timeAdjusted());
    }

    @Test
    void isoTimeWithoutOffsetIsUtc() {
        assertEquals(Instant.parse("2026-11-22T11:00:00Z").toEpochMilli(),
                transaction("\"timestamp\": \"2026-11-22T11:00:00\"").eventTimeMillis());
    }

    @Test
    void nineFractionDigitsAreAccepted() {
        assertEquals(Instant.parse("2026-11-22T11:00:00.123Z").toEpochMilli(),
                transaction("\"timestamp\": \"2026-11-22T11:00:00.123456789Z\"").eventTimeMillis());
    }

    @Test
    void epochSecondsAsNumberOrStringAreAccepted() {
        long expected = Instant.parse("2026-11-22T11:00:00.500Z").toEpochMilli();
        String seconds = java.math.BigDecimal.valueOf(expected, 3).toPlainString();
        assertEquals(expected, transaction("\"timestamp\": " + seconds).eventTimeMillis());
        assertEquals(expected, transaction("\"sent_at\": \"" + seconds + "\"").eventTimeMillis());
    }

    @Test
    void timestampWinsOverSentAt() {
        assertEquals(Instant.parse("2026-11-22T11:00:00Z").toEpochMilli(),
                transaction("\"timestamp\": \"2026-11-22T11:00:00Z\", \"sent_at\": \"2026-11-22T11:59:00Z\"").eventTimeMillis());
    }

    @Test
    void aMissingTimeIsTheReceiveTime() {
        AcceptedEvent event = transaction("");
        assertEquals(RECEIVED, event.eventTimeMillis());
        assertTrue(event.timeAdjusted());
    }

    @Test
    void moreThanSixtySecondsAheadIsAdjustedToReceiveTime() {
        AcceptedEvent event = transaction("\"timestamp\": \"2026-11-22T12:01:01Z\"");
        assertEquals(RECEIVED, event.eventTimeMillis());
        assertTrue(event.timeAdjusted());
    }

    @Test
    void sixtySecondsAheadIsKept() {
        assertFalse(transaction("\"timestamp\": \"2026-11-22T12:01:00Z\"").timeAdjusted());
    }

    @Test
    void olderThanTheHorizonIsAdjustedToReceiveTime() {
        AcceptedEvent event = transaction("\"timestamp\": \"2026-11-21T11:59:59Z\"");
        assertEquals(RECEIVED, event.eventTimeMillis());
        assertTrue(event.timeAdjusted());
    }

    @Test
    void anUnreadableTimeIsRefusedNamingTheField() {
        Rejection rejection = assertThrows(Rejection.class, () -> transaction("\"sent_at\": \"yesterday\""));
        assertEquals("sent_at", rejection.field());
    }

    /** Found by DecodeAndValidateFuzzTest: 1e309 overflowed to Infinity and escaped as NumberFormatException. */
    @Test
    void aNumberTooLargeForATimeIsRefusedNamingTheField() {
        assertEquals("timestamp", assertThrows(Rejection.class, () -> transaction("\"timestamp\": 1e309")).field());
    }

    /** Issue #13 item 8: year +999999999 overflowed epoch milliseconds and closed the connection unanswered. */
    @Test
    void anIsoTimeBeyondEpochMillisecondsIsRefusedAsOutOfRange() {
        for (String time : java.util.List.of("+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z",
                "+999999999-12-31T23:59:59", "+300000000-01-01T00:00:00+01:00")) {
            Rejection rejection = assertThrows(Rejection.class, () -> transaction("\"timestamp\": \"" + time + "\""), time);
            assertEquals("invalid_field", rejection.code(), time);
            assertEquals("timestamp", rejection.field(), time);
            assertEquals("'timestamp' is out of range: \"" + time + "\"", rejection.getMessage(), time);
        }
    }

    @Test
    void anEpochNumberBeyondAnyTimeIsRefusedAsOutOfRange() {
        for (String time : java.util.List.of("31556889864404", "9223372036854775807", "99999999999999999999999999",
                "1e300", "-1")) {
            Rejection rejection = assertThrows(Rejection.class, () -> transaction("\"sent_at\": " + time), time);
            assertEquals("invalid_field", rejection.code(), time);
            assertEquals("sent_at", rejection.field(), time);
        }
    }

    @Test
    void aFarButRepresentableIsoTimeIsAdjustedToReceiveTime() {
        AcceptedEvent event = transaction("\"timestamp\": \"+200000-01-01T00:00:00Z\"");
        assertEquals(RECEIVED, event.eventTimeMillis());
        assertTrue(event.timeAdjusted());
    }

    @Test
    void anIsoTimeWithABasicOffsetIsKept() {
        long expected = Instant.parse("2026-11-22T09:00:00Z").toEpochMilli();
        for (String time : java.util.List.of("2026-11-22T10:00:00+0100", "2026-11-22T10:00:00+01", "2026-11-22T10:00:00.000+0100",
                "2026-11-22T10:00+0100", "2026-11-22T10:00+01")) {
            AcceptedEvent event = transaction("\"timestamp\": \"" + time + "\"");
            assertEquals(expected, event.eventTimeMillis(), time);
            assertFalse(event.timeAdjusted(), time);
        }
    }

    @Test
    void aMalformedEventIdIsRefused() {
        assertEquals("event_id", assertThrows(Rejection.class, () -> transaction("\"event_id\": \"42\"")).field());
    }

    @Test
    void aMissingEventIdGetsAFreshVersion4Uuid() {
        String first = transaction("").eventId();
        assertTrue(first.matches("[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}"), first);
        assertNotEquals(first, transaction("").eventId());
        java.util.UUID uuid = java.util.UUID.fromString(first.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
        assertEquals(4, uuid.version());
        assertEquals(2, uuid.variant());
    }

    @Test
    void deeplyNestedJsonIsRefusedAsInvalid() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        Rejection rejection = assertThrows(Rejection.class, () -> transaction("\"extra\": " + deep));
        assertEquals("invalid_json", rejection.code());
    }

    /** A megabyte of {@code {}} would cost some 30 MiB of heap as a tree: more tokens than the largest event may have. */
    @Test
    void jsonDenserThanOneTokenPerFourBytesOfTheLargestEventIsRefusedBeforeItsTreeIsBuilt() {
        String dense = "[" + "{},".repeat(350_000) + "{}]"; // 1,050,004 bytes, 700,004 tokens
        Rejection rejection = assertThrows(Rejection.class, () -> transaction("\"extra\": " + dense));
        assertEquals("invalid_json", rejection.code());
        assertEquals("the body has more than 262144 JSON tokens (values, names, brackets): an event may have one per 4 bytes "
                + "of the largest event", rejection.getMessage());
    }

    @Test
    void anEventOfTheLargestSizeWithOneTokenPerFourBytesIsAccepted() {
        // 262,144 tokens in all: the event's braces, two names, a string, the array's brackets and 262,137 numbers.
        String numbers = "[" + "1,".repeat(262_136) + "1]";
        assertEquals(true, transaction("\"extra\": " + numbers).timeAdjusted());
    }

    @Test
    void theTokenLimitFollowsTheLargestEvent() {
        EventValidator eightMiB = new EventValidator(Duration.ofHours(24), 8 * 1024 * 1024);
        String dense = "{\"transaction\": \"GET /\", \"extra\": [" + "{},".repeat(350_000) + "{}]}";
        eightMiB.validate(Endpoint.TRANSACTION, dense.getBytes(StandardCharsets.UTF_8), RECEIVED);
    }

    @Test
    void duplicateKeysAreRefusedAsInvalid() {
        assertEquals("invalid_json", assertThrows(Rejection.class,
                () -> transaction("\"transaction\": \"POST /\"")).code());
    }

    @Test
    void anErrorReportMayCarryOnlyAMessageObject() {
        VALIDATOR.validate(Endpoint.ERROR_REPORT, "{\"message\": {\"formatted\": \"boom\"}}".getBytes(StandardCharsets.UTF_8), RECEIVED);
    }

    // Issue #15 changed the contract: an error report is any JSON object, as Sentry takes it (this
    // replaces anErrorReportWithAnEmptyExceptionListIsRefused, which asserted the old refusal).
    @Test
    void anErrorReportWithOnlyAnEmptyExceptionListIsAcceptedAsAGoSdkSendsIt() {
        assertEquals(RECEIVED, errorReport("{\"exception\": []}").eventTimeMillis());
        errorReport("{\"exception\": {\"values\": []}}");
    }

    @Test
    void anErrorReportWithoutExceptionMessageOrLogentryIsAccepted() {
        errorReport("{}");
        errorReport("{\"environment\": \"production\", \"exception\": \"boom\", \"message\": {\"params\": []}}");
        errorReport("{\"exception\": {\"values\": [{}]}}");
    }

    @Test
    void anErrorReportThatIsNotAnObjectIsStillRefused() {
        assertEquals("invalid_json", assertThrows(Rejection.class, () -> errorReport("[{\"exception\": []}]")).code());
    }

    @Test
    void anErrorReportWithABadEventIdOrTimestampIsStillRefused() {
        assertEquals("event_id", assertThrows(Rejection.class,
                () -> errorReport("{\"exception\": [], \"event_id\": \"nope\"}")).field());
        assertEquals("timestamp", assertThrows(Rejection.class,
                () -> errorReport("{\"exception\": [], \"timestamp\": \"yesterday\"}")).field());
    }

    private static AcceptedEvent errorReport(String json) {
        return VALIDATOR.validate(Endpoint.ERROR_REPORT, json.getBytes(StandardCharsets.UTF_8), RECEIVED);
    }
}
