package io.sluice.processor.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.sluice.config.Aggregate.Window;

/** A session row's counts and version stay what they say however large the clients' counts. */
class SessionHourRowTest {
    private static final SessionKey KEY = new SessionKey("project", "production", "shop@1.2.0");

    @Test
    void countsAddedBeyondLongMaxStopAtLongMaxInsteadOfTurningNegative() {
        SessionCounts near = new SessionCounts(Long.MAX_VALUE - 1, 0, 0, 0, Long.MAX_VALUE - 1);
        SessionCounts sum = near.plus(new SessionCounts(5, 0, 0, 0, 5));
        assertEquals(Long.MAX_VALUE, sum.started());
        assertEquals(Long.MAX_VALUE, sum.exited());
    }

    @Test
    void aCountOfTwoToTheFortyStaysInItsGenerationsVersions() {
        SessionHourRow row = SessionHourRow.of(KEY, new WindowStart(Window.HOUR, 0), new SessionCounts(1L << 40, 5, 0, 0, 0), 1);
        assertEquals((2L << 40) - 1, row.version());
    }
}
