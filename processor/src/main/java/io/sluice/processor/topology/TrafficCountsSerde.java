package io.sluice.processor.topology;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import io.sluice.processor.rows.Estimates;
import io.sluice.processor.rows.TrafficCounts;

/**
 * The traffic window store's values, compact: a format byte, then the seven counts as unsigned
 * LEB128 varints (a busy minute's counts take 2–4 bytes each; the JSON took ~120 bytes and
 * Jackson's reflection on every update). Counts of which nothing was sampled are {@link #BINARY},
 * byte for byte what they were before estimates; sampled ones are {@link #SAMPLED}, followed by
 * each class's estimate beyond its count (in millionths, 0 for a class nothing sampled reached).
 * Stores written before (restored from their changelogs) hold {@link #BINARY} or JSON objects,
 * which start with '{': both are still read, as counts of which nothing was sampled.
 */
final class TrafficCountsSerde {
    /** First byte of the binary format; never '{', the first byte of the JSON that stores restored from older changelogs hold. */
    static final byte BINARY = 1;
    /** First byte of counts with estimates. */
    static final byte SAMPLED = 2;
    private static final int COUNTS = 7;
    private static final int CLASSES = 6;
    private static final Deserializer<JsonTrafficCounts> JSON = JsonSerde.of(JsonTrafficCounts.class).deserializer();

    /** What the JSON format held: counts, no estimates. */
    record JsonTrafficCounts(long requests, long status1xx, long status2xx, long status3xx, long status4xx, long status5xx,
                  long statusNone) {
    }

    private TrafficCountsSerde() {
    }

    static Serde<TrafficCounts> create() {
        Serializer<TrafficCounts> serializer = (topic, counts) -> counts == null ? null : write(counts);
        Deserializer<TrafficCounts> deserializer = (topic, bytes) -> bytes == null ? null : read(topic, bytes);
        return Serdes.serdeFrom(serializer, deserializer);
    }

    static byte[] write(TrafficCounts counts) {
        long[] values = counts.counts();
        long[] beyond = beyondCounts(counts);
        boolean sampled = false;
        int size = 1;
        for (long value : values) {
            size += Varints.size(value);
        }
        for (long value : beyond) {
            sampled |= value != 0;
        }
        if (sampled) {
            for (long value : beyond) {
                size += Varints.size(value);
            }
        }
        byte[] bytes = new byte[size];
        bytes[0] = sampled ? SAMPLED : BINARY;
        int at = 1;
        for (long value : values) {
            at = Varints.write(bytes, at, value);
        }
        if (sampled) {
            for (long value : beyond) {
                at = Varints.write(bytes, at, value);
            }
        }
        return bytes;
    }

    static TrafficCounts read(String topic, byte[] bytes) {
        if (bytes.length > 0 && bytes[0] == '{') {
            JsonTrafficCounts json = JSON.deserialize(topic, bytes); // written before the binary format
            return new TrafficCounts(json.requests(), json.status1xx(), json.status2xx(), json.status3xx(),
                    json.status4xx(), json.status5xx(), json.statusNone());
        }
        if (bytes.length == 0 || (bytes[0] != BINARY && bytes[0] != SAMPLED)) {
            throw new SerializationException("traffic counts from " + topic + " in an unknown format");
        }
        Varints.Reader reader = new Varints.Reader(bytes, 1, "traffic counts from " + topic);
        long[] v = new long[COUNTS];
        for (int i = 0; i < COUNTS; i++) {
            v[i] = reader.next();
        }
        long[] e = new long[CLASSES];
        for (int i = 0; i < CLASSES; i++) {
            e[i] = Estimates.unsampled(v[i + 1]) + (bytes[0] == SAMPLED ? reader.next() : 0);
        }
        reader.end();
        return new TrafficCounts(v[0], v[1], v[2], v[3], v[4], v[5], v[6], e[0], e[1], e[2], e[3], e[4], e[5]);
    }

    /** Each class's estimate beyond what its count of unsampled requests would be. */
    private static long[] beyondCounts(TrafficCounts counts) {
        long[] values = counts.counts();
        long[] estimates = counts.estimates();
        long[] beyond = new long[CLASSES];
        for (int i = 0; i < CLASSES; i++) {
            beyond[i] = estimates[i] - Estimates.unsampled(values[i + 1]);
        }
        return beyond;
    }
}
