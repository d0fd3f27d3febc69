package io.sluice.processor.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.sluice.events.DurationBuckets;

class RequestCountsTest {
    @Test
    void aHostileDurationAddsAtMostThirtyDaysAndIsCountedInTheLastBucket() {
        RequestCounts counts = RequestCounts.NONE.add(1e300).add(Double.POSITIVE_INFINITY).add(2.5);
        assertEquals(2 * RequestCounts.MAX_DURATION_MICROS + 2_500, counts.durationSumMicros());
        assertEquals(2, counts.durationBuckets()[DurationBuckets.COUNT - 1]);
        assertEquals(3, counts.timed());
    }

    @Test
    void theSumSaturatesInsteadOfWrappingNegative() {
        RequestCounts nearlyFull = new RequestCounts(1, 1, Long.MAX_VALUE - 10, new long[DurationBuckets.COUNT]);
        assertEquals(Long.MAX_VALUE, nearlyFull.add(1.0).durationSumMicros());
    }

    @Test
    void aRequestWithoutADurationCountsButAddsNoTime() {
        RequestCounts counts = RequestCounts.NONE.add(-1).add(Double.NaN);
        assertEquals(2, counts.requests());
        assertEquals(0, counts.timed());
        assertEquals(0, counts.durationSumMicros());
    }

    @Test
    void partialSumsAddedTogetherEqualTheRequestsAddedOneByOne() {
        RequestCounts oneByOne = RequestCounts.NONE.add(1.5).add(-1).add(250).add(1e300);
        RequestCounts firstTask = RequestCounts.NONE.add(1.5).add(-1);
        RequestCounts secondTask = RequestCounts.NONE.add(250).add(1e300);
        assertEquals(oneByOne, firstTask.plus(secondTask));
    }
}
