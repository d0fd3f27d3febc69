package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IdBitsTest {
    private static final int CAPACITY = 100_000;

    @Test
    void everyIdPutIsMaybeThere() {
        IdBits bits = full();
        int missing = 0;
        for (int i = 0; i < CAPACITY; i++) {
            missing += bits.mightContain(SeenIdsFilter.hashOf("shop/" + i)) ? 0 : 1;
        }
        assertEquals(0, missing);
    }

    @Test
    void atCapacityAboutOneIdInAHundredNeverPutSeemsThere() {
        IdBits bits = full();
        int falsePositives = 0;
        for (int i = CAPACITY; i < 2 * CAPACITY; i++) {
            falsePositives += bits.mightContain(SeenIdsFilter.hashOf("shop/" + i)) ? 1 : 0;
        }
        // 1% of 100,000 is 1,000; a binomial's spread there is ~32: 800-1,200 holds for any sound filter.
        assertTrue(falsePositives >= 800 && falsePositives <= 1_200, falsePositives + " of " + CAPACITY);
    }

    @Test
    void aFilterTakesTheBitsGuavasOfTheSameSizeWould() {
        // Guava's BloomFilter.optimalNumOfBits(65,536, 0.01): 628,166 bits.
        assertEquals(628_166, IdBits.bitsFor(SeenIdsFilter.SMALLEST_CAPACITY, SeenIdsFilter.FALSE_POSITIVE_RATE));
    }

    /** Bits at their capacity: ids shop/0 to shop/99999 put. */
    private static IdBits full() {
        IdBits bits = new IdBits(CAPACITY, SeenIdsFilter.FALSE_POSITIVE_RATE);
        for (int i = 0; i < CAPACITY; i++) {
            bits.put(SeenIdsFilter.hashOf("shop/" + i));
        }
        return bits;
    }
}
