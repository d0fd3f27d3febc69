package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

import io.sluice.events.EventHeaders;

class UnproducibleToDeadLettersTest {
    private final DeadLetterCounts counts = new DeadLetterCounts();
    private final UnproducibleToDeadLetters handler = new UnproducibleToDeadLetters();

    UnproducibleToDeadLettersTest() {
        handler.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dead", DeadLetterCounts.CONFIG, counts));
    }

    @Test
    void anUnproducibleRecordIsCountedAsADeadLetter() {
        List<ProducerRecord<byte[], byte[]>> dead = deadLetters("{}".getBytes(StandardCharsets.UTF_8));
        assertEquals("{}", new String(dead.get(0).value(), StandardCharsets.UTF_8));
        assertEquals(1, counts.unproducibleCount());
        assertEquals(0, counts.unparseableCount());
    }

    @Test
    void anUnproducibleRecordTooLargeForADeadLetterGoesWithoutItsValue() {
        List<ProducerRecord<byte[], byte[]>> dead = deadLetters(new byte[DeadLetterValues.MAX_VALUE_BYTES + 1]);
        byte[] value = dead.get(0).value();
        assertEquals(null, value == null ? null : value.length + " bytes"); // no array dump on failure
        assertEquals((DeadLetterValues.MAX_VALUE_BYTES + 1) + " bytes, more than a dead letter carries ("
                + DeadLetterValues.MAX_VALUE_BYTES + "); the original stays at its source offset",
                EventHeaders.get(dead.get(0).headers(), DeadLetterValues.VALUE_OMITTED));
        assertEquals("raw/3@7", EventHeaders.get(dead.get(0).headers(), ToDeadLetter.SOURCE));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<ProducerRecord<byte[], byte[]>> deadLetters(byte[] sourceValue) {
        ProductionExceptionHandler.Response response = handler.handleSerializationError(context(sourceValue),
                new ProducerRecord("history", "k", "v"), new SerializationException("too large"),
                ProductionExceptionHandler.SerializationExceptionOrigin.VALUE);
        return response.deadLetterQueueRecords();
    }

    private static ErrorHandlerContext context(byte[] sourceValue) {
        return new ErrorHandlerContext() {
            public String topic() { return "raw"; }
            public int partition() { return 3; }
            public long offset() { return 7; }
            public Headers headers() { return new RecordHeaders(); }
            public String processorNodeId() { return "node"; }
            public TaskId taskId() { return new TaskId(0, 3); }
            public long timestamp() { return 0; }
            public byte[] sourceRawKey() { return "shop".getBytes(StandardCharsets.UTF_8); }
            public byte[] sourceRawValue() { return sourceValue; }
        };
    }
}
