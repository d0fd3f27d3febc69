package io.sluice.processor.topology;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import io.sluice.events.DurationBuckets;
import io.sluice.processor.rows.Estimates;
import io.sluice.processor.rows.RequestCounts;

/**
 * The request window stores' values, compact: a format byte, then requests, timed, the durations'
 * sum in microseconds and the {@link DurationBuckets#COUNT} buckets as varints: an empty bucket
 * takes one byte, a minute's counts some 45–60 bytes in all. Counts of which nothing was sampled
 * are {@link #BINARY}, byte for byte what they were before estimates (so state written before is
 * read as such); sampled ones are {@link #SAMPLED}, followed by the estimate beyond the count (in
 * millionths).
 */
final class RequestCountsSerde {
    static final byte BINARY = 1;
    static final byte SAMPLED = 2;

    private RequestCountsSerde() {
    }

    static Serde<RequestCounts> create() {
        Serializer<RequestCounts> serializer = (topic, counts) -> counts == null ? null : write(counts);
        Deserializer<RequestCounts> deserializer = (topic, bytes) -> bytes == null ? null : read(topic, bytes);
        return Serdes.serdeFrom(serializer, deserializer);
    }

    static byte[] write(RequestCounts counts) {
        long[] buckets = counts.durationBuckets();
        long beyond = counts.estimatedMillionths() - Estimates.unsampled(counts.requests());
        int size = 1 + Varints.size(counts.requests()) + Varints.size(counts.timed()) + Varints.size(counts.durationSumMicros())
                + (beyond == 0 ? 0 : Varints.size(beyond));
        for (long bucket : buckets) {
            size += Varints.size(bucket);
        }
        byte[] bytes = new byte[size];
        bytes[0] = beyond == 0 ? BINARY : SAMPLED;
        int at = Varints.write(bytes, 1, counts.requests());
        at = Varints.write(bytes, at, counts.timed());
        at = Varints.write(bytes, at, counts.durationSumMicros());
        for (long bucket : buckets) {
            at = Varints.write(bytes, at, bucket);
        }
        if (beyond != 0) {
            Varints.write(bytes, at, beyond);
        }
        return bytes;
    }

    static RequestCounts read(String topic, byte[] bytes) {
        if (bytes.length == 0 || (bytes[0] != BINARY && bytes[0] != SAMPLED)) {
            throw new SerializationException("request counts from " + topic + " in an unknown format");
        }
        Varints.Reader reader = new Varints.Reader(bytes, 1, "request counts from " + topic);
        long requests = reader.next();
        long timed = reader.next();
        long sumMicros = reader.next();
        long[] buckets = new long[DurationBuckets.COUNT];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = reader.next();
        }
        long estimated = Estimates.unsampled(requests) + (bytes[0] == SAMPLED ? reader.next() : 0);
        reader.end();
        return new RequestCounts(requests, timed, sumMicros, buckets, estimated);
    }
}
