package io.sluice.processor.topology;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.EventHeaders;
import io.sluice.sink.DeadLetters;

/**
 * How much of an input record a dead letter may carry. Streams' producer sends at most
 * {@link JsonSerde#MAX_REQUEST_BYTES}, but a raw event may be far larger (the raw topics take
 * 8 MiB): copied whole, its dead letter could not be sent, the task would fail, and fail again on
 * the same record after every restart. So a value above the limit is left out; the original stays
 * at its source offset (header {@link ToDeadLetter#SOURCE}).
 */
final class DeadLetterValues {
    /** Says the value was left out, its size, and where the original is. */
    static final String VALUE_OMITTED = DeadLetters.VALUE_OMITTED;
    /** Largest value a dead letter carries; the rest of the request's limit is left for key and headers. */
    static final int MAX_VALUE_BYTES = JsonSerde.MAX_REQUEST_BYTES - 64 * 1024;

    private DeadLetterValues() {
    }

    /** The value itself when it fits; otherwise null, with {@link #VALUE_OMITTED} added to {@code headers}. */
    static byte[] fitting(byte[] value, Headers headers) {
        if (value == null || value.length <= MAX_VALUE_BYTES) {
            return value;
        }
        EventHeaders.put(headers, VALUE_OMITTED, value.length + " bytes, more than a dead letter carries ("
                + MAX_VALUE_BYTES + "); the original stays at its source offset");
        return null;
    }
}
