package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class WindowStoresTest {
    private static final Duration HORIZON = Duration.ofHours(24);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void theSegmentIntervalOfACountStoreDoesNotDependOnTheLateMargin() {
        long tenMinutes = WindowStores.timestamped("traffic-1m", MINUTE.plus(HORIZON).plusMinutes(10), MINUTE, MINUTE.plus(HORIZON))
                .segmentIntervalMs();
        long twoHours = WindowStores.timestamped("traffic-1m", MINUTE.plus(HORIZON).plusHours(2), MINUTE, MINUTE.plus(HORIZON))
                .segmentIntervalMs();
        // Half the retention before any margin: what the stores were created with.
        assertEquals(MINUTE.plus(HORIZON).toMillis() / 2, tenMinutes);
        assertEquals(tenMinutes, twoHours);
    }

    @Test
    void aLongerMarginOnlyLengthensTheRetention() {
        assertEquals(MINUTE.plus(HORIZON).plusHours(2).toMillis(),
                WindowStores.timestamped("errors-1m", MINUTE.plus(HORIZON).plusHours(2), MINUTE, MINUTE.plus(HORIZON)).retentionPeriod());
    }
}
