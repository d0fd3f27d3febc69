package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.TrafficCounts;
import io.sluice.processor.rows.TrafficKey;

class CountFormatsTest {
    private static final TrafficCounts SOME = new TrafficCounts(300, 0, 200, 0, 60, 40, 0);
    private final Serde<CountUpdate<TrafficCounts>> trafficUpdates = CountFormats.updates(ProcessorTopology.TRAFFIC_TALLY);
    private final Serde<SourceTotals<TrafficCounts>> trafficTotals = CountFormats.totals(ProcessorTopology.TRAFFIC_TALLY);
    private final Serde<CountUpdate<Long>> errorUpdates = CountFormats.updates(ProcessorTopology.ERROR_TALLY);
    private final Serde<SourceTotals<Long>> errorTotals = CountFormats.totals(ProcessorTopology.ERROR_TALLY);

    @Test
    void anUpdateComesBackAsWritten() {
        CountUpdate<TrafficCounts> update = new CountUpdate<>(23, SOME);
        assertEquals(update, roundTrip(trafficUpdates, update));
        assertEquals(new CountUpdate<>(300, 1L << 40), roundTrip(errorUpdates, new CountUpdate<>(300, 1L << 40)));
    }

    @Test
    void totalsComeBackAsWritten() {
        SourceTotals<TrafficCounts> totals = new SourceTotals<>(TrafficCounts.NONE.add(500), Map.of(0, SOME, 7, TrafficCounts.NONE.add(200)));
        assertEquals(totals, roundTrip(trafficTotals, totals));
        SourceTotals<Long> errors = new SourceTotals<>(0L, Map.of(1, 5L, 2, Long.MAX_VALUE));
        assertEquals(errors, roundTrip(errorTotals, errors));
    }

    @Test
    void anUpdateOfTheFormerPerEventFormatIsOneEventToAdd() {
        // What a former version sent through the repartition topic: one event's status (0 for none), or 1 per error.
        byte[] status404 = ByteBuffer.allocate(4).putInt(404).array();
        assertEquals(new CountUpdate<>(CountUpdate.FORMER_EVENT, TrafficCounts.NONE.add(404)),
                trafficUpdates.deserializer().deserialize("t", status404));
        assertEquals(new CountUpdate<>(CountUpdate.FORMER_EVENT, TrafficCounts.NONE.add(null)),
                trafficUpdates.deserializer().deserialize("t", new byte[4]));
        assertEquals(new CountUpdate<>(CountUpdate.FORMER_EVENT, 1L),
                errorUpdates.deserializer().deserialize("t", ByteBuffer.allocate(4).putInt(1).array()));
    }

    @Test
    void storeValuesOfTheFormerFormatAreWhatWasCountedBefore() {
        byte[] json = "{\"requests\":3,\"status1xx\":0,\"status2xx\":2,\"status3xx\":0,\"status4xx\":0,\"status5xx\":1,\"status_none\":0}"
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(new SourceTotals<>(new TrafficCounts(3, 0, 2, 0, 0, 1, 0), Map.of()), trafficTotals.deserializer().deserialize("t", json));
        assertEquals(new SourceTotals<>(SOME, Map.of()), trafficTotals.deserializer().deserialize("t", TrafficCountsSerde.write(SOME)));
        byte[] errorCount = ByteBuffer.allocate(8).putLong(42).array();
        assertEquals(new SourceTotals<>(42L, Map.of()), errorTotals.deserializer().deserialize("t", errorCount));
    }

    @Test
    void theTotalIsTheFormerCountPlusEverySourcePartitionsLatest() {
        Tally<Long> tally = ProcessorTopology.ERROR_TALLY;
        SourceTotals<Long> totals = new SourceTotals<>(10L, Map.of())
                .with(new CountUpdate<>(0, 3L), tally)
                .with(new CountUpdate<>(1, 2L), tally)
                .with(new CountUpdate<>(0, 4L), tally) // partition 0's newer count replaces its older one
                .with(new CountUpdate<>(CountUpdate.FORMER_EVENT, 1L), tally); // a former version's event adds
        assertEquals(17L, totals.total(tally));
    }

    @Test
    void unknownOrDamagedBytesAreRefusedNotMisread() {
        byte[] update = trafficUpdates.serializer().serialize("t", new CountUpdate<>(5, SOME));
        assertThrows(SerializationException.class, () -> trafficUpdates.deserializer().deserialize("t", Arrays.copyOf(update, 3)));
        assertThrows(SerializationException.class, () -> trafficUpdates.deserializer().deserialize("t", "hello".getBytes(StandardCharsets.UTF_8)));
        byte[] totals = trafficTotals.serializer().serialize("t", new SourceTotals<>(SOME, Map.of(3, SOME)));
        assertThrows(SerializationException.class, () -> trafficTotals.deserializer().deserialize("t", Arrays.copyOf(totals, totals.length - 1)));
        byte[] longer = Arrays.copyOf(totals, totals.length + 1);
        assertThrows(SerializationException.class, () -> trafficTotals.deserializer().deserialize("t", longer));
    }

    @Test
    void aKeyAndMinuteComeBackAsWritten() {
        Serde<KeyMinute<TrafficKey>> serde = CountFormats.keyMinutes(JsonSerde.of(TrafficKey.class));
        KeyMinute<TrafficKey> keyMinute = new KeyMinute<>(new TrafficKey("shop", "production"), 1_763_806_500_000L);
        assertEquals(keyMinute, roundTrip(serde, keyMinute));
    }

    private static <T> T roundTrip(Serde<T> serde, T value) {
        return serde.deserializer().deserialize("t", serde.serializer().serialize("t", value));
    }
}
