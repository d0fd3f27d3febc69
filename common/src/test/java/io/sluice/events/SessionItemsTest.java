package io.sluice.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.events.SessionItems.Count;
import io.sluice.events.SessionItems.Kind;

/** What a session item counts, and the bounds of what it may say. */
class SessionItemsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ATTRS = "\"attrs\": {\"release\": \"shop@1.2.0\"}";

    private static List<Count> counts(String type, String json) throws Exception {
        JsonNode item = JSON.readTree(json);
        return SessionItems.counts(type, item, "item");
    }

    private static String bucket(String counts) {
        return "{\"started\": \"2026-12-07T07:00:00Z\", " + counts + "}";
    }

    private static long countOf(List<Count> counts, Kind kind) {
        return counts.stream().filter(count -> count.kind() == kind).mapToLong(Count::count).sum();
    }

    @Test
    void aBucketCountOfTheLargestUnsigned32BitNumberIsTaken() throws Exception {
        List<Count> counts = counts(SessionItems.SESSIONS, "{" + ATTRS + ", \"aggregates\": [" + bucket("\"exited\": 4294967295") + "]}");
        assertEquals(4_294_967_295L, countOf(counts, Kind.EXITED));
    }

    @Test
    void aBucketCountBeyondTheLargestUnsigned32BitNumberIsRefused() {
        InvalidFieldException refused = assertThrows(InvalidFieldException.class,
                () -> counts(SessionItems.SESSIONS, "{" + ATTRS + ", \"aggregates\": [" + bucket("\"exited\": 4294967296") + "]}"));
        assertEquals("exited", refused.field());
    }

    @Test
    void countsOfLongMaxDoNotWrapIntoANegativeStartedCount() {
        InvalidFieldException refused = assertThrows(InvalidFieldException.class, () -> counts(SessionItems.SESSIONS, "{" + ATTRS
                + ", \"aggregates\": [" + bucket("\"exited\": 9223372036854775807, \"crashed\": 9223372036854775807") + "]}"));
        assertEquals("exited", refused.field());
    }

    @Test
    void theLargestCountsInEveryFieldOfABucketStartThatManySessions() throws Exception {
        List<Count> counts = counts(SessionItems.SESSIONS, "{" + ATTRS + ", \"aggregates\": [" + bucket(
                "\"exited\": 4294967295, \"errored\": 4294967295, \"abnormal\": 4294967295, \"crashed\": 4294967295") + "]}");
        assertEquals(4 * 4_294_967_295L, countOf(counts, Kind.STARTED));
        assertEquals(3 * 4_294_967_295L, countOf(counts, Kind.ERRORED));
    }

    private static String aggregates(int buckets) {
        StringBuilder json = new StringBuilder("{" + ATTRS + ", \"aggregates\": [");
        for (int i = 0; i < buckets; i++) {
            json.append(i == 0 ? "" : ",").append(bucket("\"exited\": 1"));
        }
        return json.append("]}").toString();
    }

    @Test
    void anAggregateOfOneHundredBucketsIsCountedWhole() throws Exception {
        assertEquals(100, countOf(counts(SessionItems.SESSIONS, aggregates(100)), Kind.STARTED));
    }

    @Test
    void anAggregateOfMoreThanOneHundredBucketsIsRefusedNamingTheLimit() {
        InvalidFieldException refused = assertThrows(InvalidFieldException.class, () -> counts(SessionItems.SESSIONS, aggregates(101)));
        assertEquals("aggregates", refused.field());
        assertEquals("'aggregates' may hold at most 100 buckets, got 101; send the rest in another sessions item", refused.getMessage());
    }

    private static String update(String fields) {
        return "{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, \"started\": \"2026-12-07T07:30:00Z\", "
                + ATTRS + ", " + fields + "}";
    }

    @Test
    void anUnhandledSessionStartsAndErrsButDoesNotCrash() throws Exception {
        List<Count> counts = counts(SessionItems.SESSION, update("\"status\": \"unhandled\""));
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), List.of(countOf(counts, Kind.STARTED), countOf(counts, Kind.ERRORED),
                countOf(counts, Kind.CRASHED), countOf(counts, Kind.ABNORMAL), countOf(counts, Kind.EXITED)));
    }

    @Test
    void aSessionOfAStatusNotYetKnownStartsAndErrsAsRelayCountsIt() throws Exception {
        List<Count> counts = counts(SessionItems.SESSION, update("\"status\": \"frozen\""));
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), List.of(countOf(counts, Kind.STARTED), countOf(counts, Kind.ERRORED),
                countOf(counts, Kind.CRASHED), countOf(counts, Kind.ABNORMAL), countOf(counts, Kind.EXITED)));
    }

    @Test
    void aBucketsUnhandledSessionsStartAndErr() throws Exception {
        List<Count> counts = counts(SessionItems.SESSIONS, "{" + ATTRS + ", \"aggregates\": [" + bucket("\"exited\": 3, \"unhandled\": 2") + "]}");
        assertEquals(5, countOf(counts, Kind.STARTED));
        assertEquals(2, countOf(counts, Kind.ERRORED));
    }

    @Test
    void epochSecondsWithMoreThanThreeDecimalsAreRoundedToTheMillisecond() throws Exception {
        String session = "{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, \"started\": 1765094400.1236, " + ATTRS + "}";
        assertEquals(1_765_094_400_124L, counts(SessionItems.SESSION, session).get(0).startedMillis());
    }

    @Test
    void epochSecondsBeyondAnyTimeAreRefusedWithoutExpandingThem() {
        String session = "{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, \"started\": 1e999999999, " + ATTRS + "}";
        assertEquals("started", assertThrows(InvalidFieldException.class, () -> counts(SessionItems.SESSION, session)).field());
    }
}
