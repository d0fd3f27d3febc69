package io.sluice.aggregate;

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
 */
public final class JsonSerde {
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private JsonSerde() {
    }

    public static <T> Serde<T> of(Class<T> type) {
        // Bound to the type once: no serializer lookup per record.
        ObjectWriter writer = MAPPER.writerFor(type);
        ObjectReader reader = MAPPER.readerFor(type);
        Serializer<T> serializer = (topic, value) -> {
            try {
                return value == null ? null : writer.writeValueAsBytes(value);
            } catch (IOException e) {
                throw new SerializationException("cannot write " + type.getSimpleName() + " for " + topic, e);
            }
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
}
