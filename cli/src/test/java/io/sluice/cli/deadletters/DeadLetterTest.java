package io.sluice.cli.deadletters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import io.sluice.events.EventHeaders;
import io.sluice.sink.DeadLetters;

/** A dead letter as the tools read it, from the processor's (raw record) and the sink's (row) alike. */
class DeadLetterTest {
    private static ConsumerRecord<byte[], byte[]> record(String key, String value) {
        return new ConsumerRecord<>("sluice.dead-letters", 0, 17, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aProcessorDeadLetterKeepsTheRawRecordsHeadersAndSaysWhereItCameFrom() {
        ConsumerRecord<byte[], byte[]> record = record("shop", "{not json");
        EventHeaders.put(record.headers(), EventHeaders.PROJECT, "shop");
        EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, "0123");
        EventHeaders.put(record.headers(), DeadLetters.REASON, "invalid JSON\nat line 1");
        EventHeaders.put(record.headers(), DeadLetters.SOURCE, "sluice.transactions/2@41");
        DeadLetter letter = DeadLetter.of(record);
        assertEquals(new DeadLetter.Source("sluice.transactions", 2, 41), letter.source());
        assertEquals("shop", letter.project());
        assertEquals("0123", letter.eventId());
        assertEquals("invalid JSON", letter.reasonKind());
        assertEquals("0@17", letter.address());
        assertEquals("[sluice.project, sluice.event_id]",
                Arrays.toString(Arrays.stream(letter.originalHeaders().toArray()).map(Header::key).toArray()));
    }

    @Test
    void aSinkDeadLetterTakesProjectAndEventIdFromItsRow() {
        ConsumerRecord<byte[], byte[]> record = record("k", "{\"event_id\":\"e1\",\"nested\":{\"project\":\"no\"},\"project\":\"shop\"}");
        EventHeaders.put(record.headers(), DeadLetters.REASON, "Code: 27. DB::Exception: Cannot parse input");
        EventHeaders.put(record.headers(), DeadLetters.SOURCE, "sluice.history/0@5");
        DeadLetter letter = DeadLetter.of(record);
        assertEquals("shop", letter.project());
        assertEquals("e1", letter.eventId());
        assertEquals(0, letter.originalHeaders().toArray().length);
    }

    @Test
    void aDeadLetterWithoutSourceOrValueIsStillReadable() {
        DeadLetter letter = DeadLetter.of(record(null, null));
        assertNull(letter.source());
        assertNull(letter.project());
        assertEquals("(no reason given)", letter.reason());
    }
}
