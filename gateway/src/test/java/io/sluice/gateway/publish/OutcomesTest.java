package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.outcomes.Outcome;

/** Outcome counts are absolute per gateway and key, published until Kafka acknowledges them. */
class OutcomesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(false, null,
            new ByteArraySerializer(), new ByteArraySerializer());
    /** Flushed by hand: the scheduled flush comes after the test. */
    private final Outcomes outcomes = new Outcomes(token -> true, kafka, "sluice.outcomes", Duration.ofHours(1));

    private List<Long> eventsSent() {
        return kafka.history().stream().map(record -> {
            try {
                return JSON.readTree(new String(record.value(), StandardCharsets.UTF_8)).get("events").asLong();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    @Test
    void aRowNamesTheProjectMinuteOutcomeAndGatewayByItsWireCode() throws Exception {
        outcomes.record("shop", Outcome.TOO_MANY_FAILED_ATTEMPTS);
        outcomes.flush();

        var record = kafka.history().get(0);
        JsonNode row = JSON.readTree(record.value());
        assertEquals("too_many_failed_attempts", row.get("outcome").textValue());
        assertEquals("shop", row.get("project").textValue());
        assertEquals(0, row.get("minute").asLong() % 60);
        assertEquals("shop/too_many_failed_attempts/" + row.get("minute").asLong() + "/" + row.get("gateway").textValue(),
                new String(record.key(), StandardCharsets.UTF_8));
        assertEquals(List.of("project", "minute", "outcome", "gateway", "events", "version"), fieldNames(row));
    }

    private static List<String> fieldNames(JsonNode row) {
        List<String> names = new java.util.ArrayList<>();
        row.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aCountThatGrewAfterAFailedSendIsPublishedWhole() {
        for (int i = 0; i < 3; i++) {
            outcomes.record("shop", Outcome.ACCEPTED);
        }
        outcomes.flush();
        kafka.errorNext(new TimeoutException("Kafka is down")); // the delivery callback reports the failure

        outcomes.record("shop", Outcome.ACCEPTED);
        outcomes.flush(); // Kafka is back
        kafka.completeNext();
        outcomes.flush(); // nothing new: nothing sent

        assertEquals(List.of(3L, 4L), eventsSent());
    }

    @Test
    void closingPublishesACountThatGrewWhileItsEarlierValueWasOnItsWay() {
        outcomes.record("shop", Outcome.BODY_TOO_LARGE);
        outcomes.flush(); // 1 on its way
        outcomes.record("shop", Outcome.BODY_TOO_LARGE);

        outcomes.close();

        assertEquals(List.of(1L, 2L), eventsSent());
    }

    @Test
    void closingWhileKafkaFailsTriesOnceNotTwice() {
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        MockProducer<byte[], byte[]> failing = new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer()) {
            @Override
            public synchronized java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> send(
                    org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> record,
                    org.apache.kafka.clients.producer.Callback callback) {
                attempts.incrementAndGet();
                return super.send(record, callback);
            }
        };
        failing.sendException = new TimeoutException("Kafka is down");
        Outcomes closing = new Outcomes(token -> true, failing, "sluice.outcomes", Duration.ofHours(1));
        closing.record("shop", Outcome.BODY_TOO_LARGE);

        closing.close();

        assertEquals(1, attempts.get(), "a second round would wait out another delivery timeout");
    }

    @Test
    void aCountIsNotSentAgainWhileOnItsWayNorOnceAcknowledged() {
        outcomes.record("shop", Outcome.ACCEPTED);
        outcomes.flush();
        outcomes.flush(); // still on its way
        kafka.completeNext();
        outcomes.flush(); // acknowledged

        assertEquals(List.of(1L), eventsSent());
    }

    /** Issue #13 item 8: the count was marked published before Kafka acknowledged it, and lost when it failed. */
    @Test
    void countsRecordedWhileKafkaIsDownArePublishedAfterItReturns() {
        outcomes.record("shop", Outcome.INVALID_FIELD);
        outcomes.record("shop", Outcome.INVALID_FIELD);
        outcomes.flush();
        kafka.errorNext(new TimeoutException("Kafka is down"));
        outcomes.flush();
        kafka.completeNext();

        assertEquals(List.of(2L, 2L), eventsSent());
    }

    /** A clock set by hand, one minute a step. */
    private final java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_800_000_000_000L);

    private Outcomes bounded(int maxRows, int maxRowsOnTheirWay) {
        return new Outcomes(token -> true, kafka, "sluice.outcomes", Duration.ofHours(1), now::get, maxRows, maxRowsOnTheirWay);
    }

    private List<Long> minutesSent() {
        return kafka.history().stream().map(record -> {
            try {
                return JSON.readTree(new String(record.value(), StandardCharsets.UTF_8)).get("minute").asLong();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    private long minute(int step) {
        return (1_800_000_000_000L + step * 60_000L) / 60_000 * 60;
    }

    @Test
    void duringALongOutageOnlyTheNewestRowsAreKeptAndTheDroppedAreCounted() {
        Outcomes kept = bounded(3, 100);
        for (int step = 0; step < 5; step++) {
            kept.record("shop", Outcome.ACCEPTED);
            now.addAndGet(60_000);
        }
        kept.flush();
        while (kafka.errorNext(new TimeoutException("Kafka is down"))) {
            // every send fails
        }
        assertEquals(2, kept.droppedRows(), "the two oldest minutes did not fit");

        kept.flush(); // Kafka is back
        assertEquals(List.of(minute(2), minute(3), minute(4), minute(2), minute(3), minute(4)), minutesSent());
    }

    /** The rows as outcomes_1m keeps them (the highest version per key), as project=events. */
    private java.util.Map<String, Long> rowsKept() {
        java.util.Map<String, Long> kept = new java.util.TreeMap<>();
        kafka.history().forEach(record -> {
            try {
                JsonNode row = JSON.readTree(record.value());
                kept.merge(row.get("project").textValue() + "/" + row.get("outcome").textValue() + "/" + row.get("minute").asLong(),
                        row.get("version").asLong(), Math::max);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return kept;
    }

    private void acknowledgeAll() {
        while (kafka.completeNext()) {
            // every send succeeds
        }
    }

    /**
     * Issue 29 finding 7: past the bound, the oldest rows of the current minute were dropped and
     * restarted at 0, so the row of a project that kept sending went down. Now nothing of the
     * current minute is dropped, and a key that finds the table full counts under (overflow).
     */
    @Test
    void pastItsBoundNoCountOfThisMinuteRestartsAndNewKeysCountUnderOverflow() {
        Outcomes full = bounded(2, 100);
        full.record("a", Outcome.ACCEPTED);
        full.record("a", Outcome.ACCEPTED);
        full.record("b", Outcome.ACCEPTED);
        full.record("c", Outcome.ACCEPTED); // the table is full
        full.record("c", Outcome.QUOTA_EXCEEDED);
        full.flush();
        acknowledgeAll();
        full.record("a", Outcome.ACCEPTED);
        full.flush();
        acknowledgeAll();

        long minute = minute(0);
        assertEquals(java.util.Map.of("a/accepted/" + minute, 3L, "b/accepted/" + minute, 1L,
                "(overflow)/accepted/" + minute, 1L, "(overflow)/quota_exceeded/" + minute, 1L), rowsKept());
        assertEquals(2, full.overflowEvents());
        assertEquals(0, full.droppedRows());
    }

    /** Rows of minutes gone by that Kafka acknowledged are forgotten first, so the new minute's keys count by project again. */
    @Test
    void acknowledgedRowsOfPastMinutesMakeRoomBeforeAnythingIsDropped() {
        Outcomes full = bounded(2, 100);
        full.record("a", Outcome.ACCEPTED);
        full.record("b", Outcome.ACCEPTED);
        full.flush();
        acknowledgeAll();
        now.addAndGet(120_000); // two minutes on
        full.record("c", Outcome.ACCEPTED); // still full: (overflow) until the flush makes room
        full.flush();
        acknowledgeAll();
        full.record("d", Outcome.ACCEPTED);

        full.flush();
        acknowledgeAll();
        assertEquals(java.util.Map.of("a/accepted/" + minute(0), 1L, "b/accepted/" + minute(0), 1L,
                "(overflow)/accepted/" + minute(2), 1L, "d/accepted/" + minute(2), 1L), rowsKept());
        assertEquals(0, full.droppedRows());
    }

    @Test
    void aFlushHasAtMostItsBoundOfRowsOnTheirWayOldestFirst() {
        Outcomes paced = bounded(100, 2);
        for (int step = 0; step < 5; step++) {
            paced.record("shop", Outcome.ACCEPTED);
            now.addAndGet(60_000);
        }
        paced.flush();
        paced.flush(); // the first two are still on their way
        assertEquals(List.of(minute(0), minute(1)), minutesSent());

        kafka.completeNext();
        kafka.completeNext();
        paced.flush();
        kafka.completeNext();
        kafka.completeNext();
        paced.flush();
        assertEquals(List.of(minute(0), minute(1), minute(2), minute(3), minute(4)), minutesSent());
        assertEquals(0, paced.droppedRows());
    }
}
