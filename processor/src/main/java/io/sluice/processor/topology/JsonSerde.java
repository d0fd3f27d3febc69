package io.sluice.processor.topology;

import java.io.IOException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * JSON (snake_case) serde for the processor's records. The derived topics are JSON so that the
 * sink can hand them to ClickHouse's JSONEachRow unchanged, and people can read them.
 *
 * <p>A value larger than the producer may send fails here, as a serialization error, and not in
 * the producer: under exactly-once a producer that refused a record is in an error state and its
 * transaction must abort, so the task would fail on that record forever. A serialization error
 * comes before the producer, and {@link UnproducibleToDeadLetters} sends the input record to the
 * dead letters instead.
 */
public final class JsonSerde {
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The stream producer's max.request.size: 1 MiB, what brokers accept by default (message.max.bytes). */
    public static final int MAX_REQUEST_BYTES = 1024 * 1024;
    /** Largest value written: room left for key, headers and the record's framing. */
    static final int MAX_VALUE_BYTES = MAX_REQUEST_BYTES - 16 * 1024;

    private JsonSerde() {
    }

    public static <T> Serde<T> of(Class<T> type) {
        // Bound to the type once: no serializer lookup per record.
        ObjectWriter writer = MAPPER.writerFor(type);
        return of(type, writer::writeValueAsBytes);
    }

    /**
     * A serde that writes with {@code writer}, which must write what {@link #of(Class)} would, and
     * reads as it does; the same bound on the size.
     */
    static <T> Serde<T> of(Class<T> type, Writer<T> writer) {
        ObjectReader reader = MAPPER.readerFor(type);
        Serializer<T> serializer = (topic, value) -> {
            if (value == null) {
                return null;
            }
            byte[] bytes;
            try {
                bytes = writer.write(value);
            } catch (IOException e) {
                throw new SerializationException("cannot write " + type.getSimpleName() + " for " + topic, e);
            }
            if (bytes.length > MAX_VALUE_BYTES) {
                throw new SerializationException(type.getSimpleName() + " for " + topic + " is " + bytes.length
                        + " bytes, more than the " + MAX_VALUE_BYTES + " the producer may send");
            }
            return bytes;
        };
        Deserializer<T> deserializer = (topic, bytes) -> {
            try {
                return bytes == null ? null : reader.readValue(bytes);
            } catch (IOException e) {
                throw new SerializationException("cannot read " + type.getSimpleName() + " from " + topic, e);
            }
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    /** A value's JSON. */
    @FunctionalInterface
    interface Writer<T> {
        byte[] write(T value) throws IOException;
    }
}
