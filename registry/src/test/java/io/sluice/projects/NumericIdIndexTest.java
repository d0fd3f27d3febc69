package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class NumericIdIndexTest {
    @Test
    void aTokenIsFoundByItsId() {
        NumericIdIndex index = new NumericIdIndex();
        index.add(42, "a");
        assertEquals("a", index.token(42));
        assertNull(index.token(43));
    }

    @Test
    void twoTokensWithOneIdAreNeitherFound() {
        NumericIdIndex index = new NumericIdIndex();
        index.add(42, "a");
        index.add(42, "b");
        assertNull(index.token(42));
    }

    @Test
    void afterOneOfTwoCollidingTokensIsRemovedTheOtherIsFound() {
        NumericIdIndex index = new NumericIdIndex();
        index.add(42, "a");
        index.add(42, "b");
        index.remove(42, "a");
        assertEquals("b", index.token(42));
        index.remove(42, "b");
        assertNull(index.token(42));
    }

    @Test
    void addingTheSameTokenAgainIsNoCollision() {
        NumericIdIndex index = new NumericIdIndex();
        index.add(42, "a");
        index.add(42, "a");
        assertEquals("a", index.token(42));
    }
}
