package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.bench.load.Wrk;

/** When a step of the sustained-rate search counts as keeping up. */
class SustainedRateTest {
    private static Wrk.Result delivered(double perSecond) {
        return new Wrk.Result(perSecond, 2, 5, 9, 0, 0, 10 * (long) perSecond);
    }

    @Test
    void aSteadilyGrowingLagHasItsGrowthPerSecondAsSlope() {
        List<double[]> samples = new ArrayList<>();
        for (int t = 0; t < 10; t++) {
            samples.add(new double[] {t, 500 + 300 * t});
        }
        assertEquals(300, SustainedRate.slope(samples), 1e-9);
    }

    @Test
    void aLagThatOnlyJumpsWithCommitsHasNoSlope() {
        double[] lags = {100, 900, 100, 900, 100, 100, 900, 100, 900, 100};
        List<double[]> samples = new ArrayList<>();
        for (int t = 0; t < lags.length; t++) {
            samples.add(new double[] {t, lags[t]});
        }
        assertEquals(0, SustainedRate.slope(samples), 1e-9);
    }

    @Test
    void aLagThatGrowsByLessThanOneSecondOfTheRateKeepsUp() {
        assertTrue(SustainedRate.keepsUp(9_999, 10_000, delivered(10_000)));
    }

    @Test
    void aLagThatGrowsByOneSecondOfTheRateFallsBehind() {
        assertFalse(SustainedRate.keepsUp(10_000, 10_000, delivered(10_000)));
    }

    @Test
    void aRateTheGatewayDidNotDeliverDoesNotCount() {
        assertFalse(SustainedRate.keepsUp(0, 10_000, delivered(8_999)));
        assertTrue(SustainedRate.keepsUp(0, 10_000, delivered(9_000)));
    }

    @Test
    void aStepWithNon2xxAnswersDoesNotCount() {
        assertFalse(SustainedRate.keepsUp(0, 10_000, new Wrk.Result(10_000, 2, 5, 9, 1, 0, 100_000)));
    }

    @Test
    void aSearchWhoseEveryStepKeptUpSaysTheRateMayBeHigher() {
        SustainedRate.Step kept = new SustainedRate.Step(5_000, 5_000, 0, 5_000, true, 0.5, 0.5, delivered(5_000));
        SustainedRate.Step behind = new SustainedRate.Step(7_500, 7_500, 9_000, 7_500, false, 0.5, 0.5, delivered(7_500));
        assertTrue(new SustainedRate.Result(5_000, 10_000, List.of(kept, kept)).atUpperBound());
        assertFalse(new SustainedRate.Result(5_000, 10_000, List.of(kept, behind)).atUpperBound());
    }
}
