package io.sluice.processor.topology;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import io.sluice.processor.rows.TrafficCounts;

/**
 * The traffic window store's values, compact: a format byte ({@link #BINARY}), then the seven
 * counts as unsigned LEB128 varints (a busy minute's counts take 2–4 bytes each; the JSON took
 * ~120 bytes and Jackson's reflection on every update). Stores written before this (restored from
 * their changelogs) hold JSON objects, which start with '{': those are still read, and each is
 * written back binary at the next update of its minute.
 */
final class TrafficCountsSerde {
    /** First byte of the binary format; never '{', the first byte of the former JSON. */
    static final byte BINARY = 1;
    private static final int COUNTS = 7;
    private static final Deserializer<TrafficCounts> JSON = JsonSerde.of(TrafficCounts.class).deserializer();

    private TrafficCountsSerde() {
    }

    static Serde<TrafficCounts> create() {
        Serializer<TrafficCounts> serializer = (topic, counts) -> counts == null ? null : write(counts);
        Deserializer<TrafficCounts> deserializer = (topic, bytes) -> bytes == null ? null : read(topic, bytes);
        return Serdes.serdeFrom(serializer, deserializer);
    }

    static byte[] write(TrafficCounts counts) {
        long[] values = {counts.requests(), counts.status1xx(), counts.status2xx(), counts.status3xx(),
                counts.status4xx(), counts.status5xx(), counts.statusNone()};
        int size = 1;
        for (long value : values) {
            size += Varints.size(value);
        }
        byte[] bytes = new byte[size];
        bytes[0] = BINARY;
        int at = 1;
        for (long value : values) {
            at = Varints.write(bytes, at, value);
        }
        return bytes;
    }

    static TrafficCounts read(String topic, byte[] bytes) {
        if (bytes.length > 0 && bytes[0] == '{') {
            return JSON.deserialize(topic, bytes); // written before the binary format
        }
        if (bytes.length == 0 || bytes[0] != BINARY) {
            throw new SerializationException("traffic counts from " + topic + " in an unknown format");
        }
        Varints.Reader reader = new Varints.Reader(bytes, 1, "traffic counts from " + topic);
        long[] values = new long[COUNTS];
        for (int i = 0; i < COUNTS; i++) {
            values[i] = reader.next();
        }
        reader.end();
        return new TrafficCounts(values[0], values[1], values[2], values[3], values[4], values[5], values[6]);
    }
}
