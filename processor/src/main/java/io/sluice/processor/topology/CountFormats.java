package io.sluice.processor.topology;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The bytes of the two-stage count: the updates on the repartition topic and the counting stage's
 * store values. Each starts with a format byte that no former value starts with, so what a former
 * version wrote is still read: a former update is a 4-byte int (one event), a former store value is
 * the counts alone (traffic: JSON or {@link TrafficCountsSerde#BINARY}; errors: an 8-byte count
 * below 2^56).
 */
final class CountFormats {
    /** First byte of an update: [U] [partition] [counts]. */
    static final byte UPDATE = 'U';
    /** First byte of a store value: [T] [former counts] [n] n × ([partition] [counts]); counts length-prefixed. */
    static final byte TOTALS = 'T';
    private static final int FORMER_UPDATE_BYTES = Integer.BYTES;

    private CountFormats() {
    }

    static <C> Serde<CountUpdate<C>> updates(Tally<C> tally) {
        Serializer<C> counts = tally.serde().serializer();
        Deserializer<C> countsReader = tally.serde().deserializer();
        Serializer<CountUpdate<C>> serializer = (topic, update) -> {
            if (update == null) {
                return null;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(16);
            out.write(UPDATE);
            Varints.write(out, update.sourcePartition());
            out.writeBytes(counts.serialize(topic, update.counts()));
            return out.toByteArray();
        };
        Deserializer<CountUpdate<C>> deserializer = (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length == FORMER_UPDATE_BYTES && bytes[0] != UPDATE) {
                return new CountUpdate<>(CountUpdate.FORMER_EVENT, tally.formerEvent().apply(ByteBuffer.wrap(bytes).getInt()));
            }
            if (bytes.length == 0 || bytes[0] != UPDATE) {
                throw new SerializationException("count update from " + topic + " in an unknown format");
            }
            Varints.Reader reader = new Varints.Reader(bytes, 1, "count update from " + topic);
            int partition = reader.nextInt();
            return new CountUpdate<>(partition, countsReader.deserialize(topic, reader.rest()));
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    static <C> Serde<SourceTotals<C>> totals(Tally<C> tally) {
        Serializer<C> counts = tally.serde().serializer();
        Deserializer<C> countsReader = tally.serde().deserializer();
        Serializer<SourceTotals<C>> serializer = (topic, totals) -> {
            if (totals == null) {
                return null;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(32);
            out.write(TOTALS);
            writeCounts(out, counts.serialize(topic, totals.former()));
            Varints.write(out, totals.bySource().size());
            for (Map.Entry<Integer, C> source : new TreeMap<>(totals.bySource()).entrySet()) {
                Varints.write(out, source.getKey());
                writeCounts(out, counts.serialize(topic, source.getValue()));
            }
            return out.toByteArray();
        };
        Deserializer<SourceTotals<C>> deserializer = (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length == 0 || bytes[0] != TOTALS) {
                return new SourceTotals<>(countsReader.deserialize(topic, bytes), Map.of()); // written by a former version
            }
            Varints.Reader reader = new Varints.Reader(bytes, 1, "count totals from " + topic);
            C former = countsReader.deserialize(topic, reader.nextBytes(reader.nextInt()));
            int sources = reader.nextInt();
            Map<Integer, C> bySource = new HashMap<>();
            for (int i = 0; i < sources; i++) {
                int partition = reader.nextInt();
                bySource.put(partition, countsReader.deserialize(topic, reader.nextBytes(reader.nextInt())));
            }
            reader.expectEnd();
            return new SourceTotals<>(former, bySource);
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    /** A key's bytes as its serde makes them, then the minute, 8 bytes. */
    static <K> Serde<KeyMinute<K>> keyMinutes(Serde<K> keys) {
        Serializer<K> keyWriter = keys.serializer();
        Deserializer<K> keyReader = keys.deserializer();
        Serializer<KeyMinute<K>> serializer = (topic, keyMinute) -> {
            if (keyMinute == null) {
                return null;
            }
            byte[] key = keyWriter.serialize(topic, keyMinute.key());
            return ByteBuffer.allocate(key.length + Long.BYTES).put(key).putLong(keyMinute.minute()).array();
        };
        Deserializer<KeyMinute<K>> deserializer = (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length < Long.BYTES) {
                throw new SerializationException("key and minute from " + topic + " are cut short");
            }
            int keyLength = bytes.length - Long.BYTES;
            return new KeyMinute<>(keyReader.deserialize(topic, java.util.Arrays.copyOf(bytes, keyLength)),
                    ByteBuffer.wrap(bytes, keyLength, Long.BYTES).getLong());
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    private static void writeCounts(ByteArrayOutputStream out, byte[] counts) {
        Varints.write(out, counts.length);
        out.writeBytes(counts);
    }
}
