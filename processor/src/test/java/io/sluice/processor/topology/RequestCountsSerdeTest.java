package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import io.sluice.processor.rows.RequestCounts;

class RequestCountsSerdeTest {
    @Test
    void countsAndHistogramSurviveTheStore() {
        RequestCounts counts = RequestCounts.NONE.add(0.2).add(12.5).add(12.5).add(-1).add(3_600_000.0).add(Long.MAX_VALUE / 1e9);
        assertEquals(counts, RequestCountsSerde.read("t", RequestCountsSerde.write(counts)));
    }

    @Test
    void anEmptyMinuteTakesFortyFourBytes() {
        assertEquals(1 + 3 + 40, RequestCountsSerde.write(RequestCounts.NONE.add(-1)).length);
    }

    @Test
    void sampledCountsComeBackWithTheirEstimate() {
        RequestCounts counts = RequestCounts.NONE.add(12.5, 4_000_000).add(-1, 10_000_000);
        byte[] bytes = RequestCountsSerde.write(counts);
        assertEquals(RequestCountsSerde.SAMPLED, bytes[0]);
        assertEquals(14_000_000, RequestCountsSerde.read("t", bytes).estimatedMillionths());
        assertEquals(counts, RequestCountsSerde.read("t", bytes));
    }

    @Test
    void countsStoredBeforeEstimatesAreReadAsNotSampled() {
        byte[] before = RequestCountsSerde.write(RequestCounts.NONE.add(3.0).add(-1));
        assertEquals(RequestCountsSerde.BINARY, before[0]);
        assertEquals(2_000_000, RequestCountsSerde.read("t", before).estimatedMillionths());
    }

    @Test
    void bytesCutShortAreRefused() {
        byte[] bytes = RequestCountsSerde.write(RequestCounts.NONE.add(5.0));
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 1);
        assertThrows(SerializationException.class, () -> RequestCountsSerde.read("t", cut));
    }

    @Test
    void anUnknownFormatIsRefused() {
        assertThrows(SerializationException.class, () -> RequestCountsSerde.read("t", new byte[] {'{', '}'}));
    }
}
