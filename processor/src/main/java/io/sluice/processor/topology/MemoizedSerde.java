package io.sluice.processor.topology;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A serde that remembers what another serde made of the few values it sees again and again (the
 * grouping keys: a project and environment, or with an exception type), in both directions. The
 * bytes are the other serde's own, so they stay exactly what they were: they decide the
 * repartition partition and the window store's key, and must not change across an upgrade.
 * Bounded: when full, it forgets everything and starts again (a deployment has far fewer keys),
 * and only keys of at most {@link #MAX_KEY_BYTES} are remembered, so hostile exception types
 * (up to 1024 characters, up to 6 bytes each escaped) cannot fill the heap: well under 1 MB.
 * The values must be immutable (records).
 */
final class MemoizedSerde {
    /**
     * Few enough that a bucket of colliding keys (a tenant can make environments with one
     * String.hashCode) costs a lookup at most a few microseconds; a deployment with more keys
     * than this is served by the inner serde (correct, only slower).
     */
    static final int MAX_ENTRIES = 256;
    static final int MAX_KEY_BYTES = 512;

    private MemoizedSerde() {
    }

    static <T> Serde<T> of(Serde<T> inner) {
        Serializer<T> writer = inner.serializer();
        Deserializer<T> reader = inner.deserializer();
        // Shared by the stream threads: concurrent maps.
        Map<T, byte[]> bytesByValue = new ConcurrentHashMap<>();
        Map<ByteBuffer, T> valueByBytes = new ConcurrentHashMap<>();
        Serializer<T> serializer = (topic, value) -> {
            if (value == null) {
                return null;
            }
            byte[] bytes = bytesByValue.get(value);
            if (bytes == null) {
                bytes = writer.serialize(topic, value);
                if (bytes.length <= MAX_KEY_BYTES) {
                    remember(bytesByValue, value, bytes);
                }
            }
            return bytes;
        };
        Deserializer<T> deserializer = (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length > MAX_KEY_BYTES) {
                return reader.deserialize(topic, bytes);
            }
            T value = valueByBytes.get(ByteBuffer.wrap(bytes));
            if (value == null) {
                value = reader.deserialize(topic, bytes);
                if (value == null) {
                    return null; // JSON null: nothing to remember
                }
                // A copy: the caller's array is theirs to reuse.
                remember(valueByBytes, ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length)), value);
            }
            return value;
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    private static <K, V> void remember(Map<K, V> map, K key, V value) {
        if (map.size() >= MAX_ENTRIES) {
            map.clear();
        }
        map.put(key, value);
    }
}
