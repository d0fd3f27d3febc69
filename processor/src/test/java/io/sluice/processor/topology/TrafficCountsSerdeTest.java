package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.TrafficCounts;

class TrafficCountsSerdeTest {
    private final Serde<TrafficCounts> serde = TrafficCountsSerde.create();

    @Test
    void countsComeBackAsWritten() {
        Random random = new Random(18);
        for (int i = 0; i < 10_000; i++) {
            TrafficCounts counts = new TrafficCounts(count(random), count(random), count(random), count(random),
                    count(random), count(random), count(random));
            assertEquals(counts, serde.deserializer().deserialize("t", serde.serializer().serialize("t", counts)));
        }
        TrafficCounts extremes = new TrafficCounts(Long.MAX_VALUE, 0, 127, 128, 16_383, 16_384, Long.MAX_VALUE - 1);
        assertEquals(extremes, serde.deserializer().deserialize("t", serde.serializer().serialize("t", extremes)));
    }

    @Test
    void countsAreFewBytes() {
        assertEquals(8, serde.serializer().serialize("t", TrafficCounts.NONE.add(200)).length);
    }

    @Test
    void countsStoredAsJsonBeforeTheBinaryFormatAreRead() {
        // What the processor wrote to the traffic store (and its changelog) before: JsonSerde's bytes.
        byte[] old = "{\"requests\":7,\"status1xx\":1,\"status2xx\":2,\"status3xx\":0,\"status4xx\":1,\"status5xx\":1,\"status_none\":2}"
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(new TrafficCounts(7, 1, 2, 0, 1, 1, 2), serde.deserializer().deserialize("t", old));
    }

    @Test
    void sampledCountsComeBackWithTheirEstimates() {
        TrafficCounts counts = TrafficCounts.NONE.add(200, 4_000_000).add(503, 3_333_333).add(null);
        byte[] bytes = serde.serializer().serialize("t", counts);
        assertEquals(TrafficCountsSerde.SAMPLED, bytes[0]);
        assertEquals(counts, serde.deserializer().deserialize("t", bytes));
        assertEquals(8_333_333, serde.deserializer().deserialize("t", bytes).estimatedRequests());
    }

    @Test
    void countsOfWhichNothingWasSampledAreWrittenAsBeforeEstimates() {
        // What the processor wrote before estimates for one 200: format 1, then requests, 1xx..5xx, none.
        assertArrayEquals(new byte[] {1, 1, 0, 1, 0, 0, 0, 0}, serde.serializer().serialize("t", TrafficCounts.NONE.add(200)));
    }

    @Test
    void binaryCountsStoredBeforeEstimatesAreReadAsNotSampled() {
        TrafficCounts read = serde.deserializer().deserialize("t", new byte[] {1, 3, 0, 2, 0, 1, 0, 0});
        assertEquals(3_000_000, read.estimatedRequests());
        assertEquals(2_000_000, read.estimated2xx());
        assertEquals(1_000_000, read.estimated4xx());
    }

    @Test
    void bytesOfNoKnownFormatAreASerializationError() {
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", new byte[] {9, 1}));
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", new byte[] {1, 1, 1}));
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", new byte[0]));
    }

    private static long count(Random random) {
        return switch (random.nextInt(3)) {
            case 0 -> random.nextInt(200);
            case 1 -> random.nextLong() >>> 1;
            default -> random.nextInt(Integer.MAX_VALUE);
        };
    }
}
