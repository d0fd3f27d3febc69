package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.RequestCounts;
import io.sluice.processor.rows.TrafficCounts;

/** The repartition topics' values: sums, and the one-event records a processor before pre-aggregation left there. */
class PartialSerdesTest {
    private static final String TOPIC = "app-traffic-by-environment-repartition";

    @Test
    void aFormerStatusRecordIsReadAsTheSumOfItsOneEvent() {
        byte[] former = Serdes.Integer().serializer().serialize(TOPIC, 503);
        assertEquals(TrafficCounts.NONE.add(503), PartialSerdes.traffic().deserializer().deserialize(TOPIC, former));
    }

    @Test
    void aFormerStatusRecordWithoutAStatusIsReadAsOneRequestWithNone() {
        byte[] former = Serdes.Integer().serializer().serialize(TOPIC, 0);
        assertEquals(TrafficCounts.NONE.add(null), PartialSerdes.traffic().deserializer().deserialize(TOPIC, former));
    }

    @Test
    void aTrafficSumWithOneStatusReadsBackAsWritten() {
        TrafficCounts sum = TrafficCounts.NONE.add(200);
        assertEquals(sum, PartialSerdes.traffic().deserializer().deserialize(TOPIC, PartialSerdes.traffic().serializer().serialize(TOPIC, sum)));
    }

    @Test
    void aFormerDurationRecordIsReadAsTheSumOfItsOneRequest() {
        byte[] former = Serdes.Double().serializer().serialize(TOPIC, 12.5);
        assertEquals(RequestCounts.NONE.add(12.5), PartialSerdes.requests().deserializer().deserialize(TOPIC, former));
    }

    @Test
    void aRequestSumReadsBackAsWritten() {
        RequestCounts sum = RequestCounts.NONE.add(12.5).add(-1);
        assertEquals(sum, PartialSerdes.requests().deserializer().deserialize(TOPIC, PartialSerdes.requests().serializer().serialize(TOPIC, sum)));
    }

    @Test
    void aFormerErrorRecordIsReadAsOneError() {
        byte[] former = Serdes.Integer().serializer().serialize(TOPIC, 1);
        assertEquals(1L, PartialSerdes.errors().deserializer().deserialize(TOPIC, former));
    }

    @Test
    void anErrorSumReadsBackAsWritten() {
        assertEquals(1L, PartialSerdes.errors().deserializer().deserialize(TOPIC, PartialSerdes.errors().serializer().serialize(TOPIC, 1L)));
    }
}
