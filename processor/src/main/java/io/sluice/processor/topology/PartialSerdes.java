package io.sluice.processor.topology;

import java.nio.ByteBuffer;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

import io.sluice.processor.rows.RequestCounts;
import io.sluice.processor.rows.TrafficCounts;

/**
 * The values of the repartition topics: partial sums ({@link PartialCounts}). A processor before
 * pre-aggregation sent one record per event through the same topics, a status as a 4-byte integer,
 * a duration as an 8-byte double, an error as the integer 1; those may still wait there when an
 * instance is upgraded. Every sum is longer than one event's value (traffic counts take at least 8
 * bytes, request counts 44, an error count is an 8-byte long), so each record is read by its
 * length: one event's value as the sum of that one event.
 */
final class PartialSerdes {
    private static final int ONE_STATUS_BYTES = Integer.BYTES;
    private static final int ONE_DURATION_BYTES = Double.BYTES;
    private static final int ONE_ERROR_BYTES = Integer.BYTES;

    private PartialSerdes() {
    }

    static Serde<TrafficCounts> traffic() {
        Serde<TrafficCounts> sums = TrafficCountsSerde.create();
        Deserializer<TrafficCounts> deserializer = (topic, bytes) -> {
            if (bytes != null && bytes.length == ONE_STATUS_BYTES) {
                int status = ByteBuffer.wrap(bytes).getInt();
                return TrafficCounts.NONE.add(status == 0 ? null : status);
            }
            return sums.deserializer().deserialize(topic, bytes);
        };
        return Serdes.serdeFrom(sums.serializer(), deserializer);
    }

    static Serde<RequestCounts> requests() {
        Serde<RequestCounts> sums = RequestCountsSerde.create();
        Deserializer<RequestCounts> deserializer = (topic, bytes) -> bytes != null && bytes.length == ONE_DURATION_BYTES
                ? RequestCounts.NONE.add(ByteBuffer.wrap(bytes).getDouble())
                : sums.deserializer().deserialize(topic, bytes);
        return Serdes.serdeFrom(sums.serializer(), deserializer);
    }

    static Serde<Long> errors() {
        Serde<Long> sums = Serdes.Long();
        Deserializer<Long> deserializer = (topic, bytes) -> bytes != null && bytes.length == ONE_ERROR_BYTES
                ? (long) ByteBuffer.wrap(bytes).getInt()
                : sums.deserializer().deserialize(topic, bytes);
        return Serdes.serdeFrom(sums.serializer(), deserializer);
    }
}
