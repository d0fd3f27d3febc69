package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** CPU per event is measured at one rate in every run, so that runs compare. */
class PipelineCostRateTest {
    @Test
    void theLoadIsFiveThousandEventsASecondWhateverTheUpperBoundAboveTwiceThat() {
        assertEquals(5_000, PipelineCost.rate(11_529));
        assertEquals(5_000, PipelineCost.rate(23_052));
    }

    @Test
    void aPipelineThatCannotCarryTwiceThatIsLoadedAtHalfItsUpperBound() {
        assertEquals(4_000, PipelineCost.rate(8_000));
    }
}
