package io.sluice.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The warm-up goes on while the JIT still makes each round faster, and no longer. */
class WrkWarmUpTest {
    @Test
    void oneRoundIsNeverWarm() {
        assertFalse(Wrk.warm(List.of(20_000.0)));
    }

    @Test
    void aRoundFivePercentFasterThanTheOneBeforeIsStillWarming() {
        assertFalse(Wrk.warm(List.of(3_900.0, 14_000.0, 14_700.0)));
    }

    @Test
    void aRoundThatGainsLessThanFivePercentEndsTheWarmUp() {
        assertTrue(Wrk.warm(List.of(3_900.0, 14_000.0, 14_650.0)));
    }

    @Test
    void aSlowerRoundEndsTheWarmUp() {
        assertTrue(Wrk.warm(List.of(3_900.0, 14_000.0, 12_000.0)));
    }

    @Test
    void eightRoundsEndTheWarmUpHoweverTheRatesRise() {
        assertFalse(Wrk.warm(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)));
        assertTrue(Wrk.warm(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0)));
    }

    @Test
    void theLineShowsEveryRound() {
        assertEquals("3 rounds at 64 connections until one gained under 5%: 3,900 / 14,000 / 14,100 req/s",
                Wrk.warmUpLine(List.of(3_900.0, 14_000.0, 14_100.0)));
    }
}
