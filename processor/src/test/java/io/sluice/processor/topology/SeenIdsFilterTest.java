package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SeenIdsFilterTest {
    private static final long SPAN = Duration.ofHours(12).toMillis();
    private static final long RETENTION = Duration.ofHours(26).toMillis();
    private static final long T0 = 1_795_000_000_000L;

    private final FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
    private final SeenIdsFilter filter = new SeenIdsFilter(SPAN, RETENTION, memory);

    @BeforeEach
    void restoredIdsAllIn() {
        filter.complete();
    }

    @Test
    void untilTheRestoredIdsAreAllInItAnswersMaybeToEverything() {
        SeenIdsFilter filling = new SeenIdsFilter(SPAN, RETENTION, memory);
        filling.add("shop/a", T0);
        assertTrue(filling.mightContain("shop/b"));
        filling.complete();
        assertFalse(filling.mightContain("shop/b"));
    }

    @Test
    void anIdNeverAddedIsNotSeenAndAnAddedOneMaybeIs() {
        filter.add("shop/a", T0);
        assertTrue(filter.mightContain("shop/a"));
        assertFalse(filter.mightContain("shop/b"));
    }

    @Test
    void everyIdAddedIsMaybeSeenAcrossSpansAndFullFilters() {
        int ids = 3 * (int) SeenIdsFilter.SMALLEST_CAPACITY; // more than the first filter of a span holds
        for (int i = 0; i < ids; i++) {
            filter.add("shop/" + i, T0 + i * (SPAN / ids) * 2); // over two spans
        }
        for (int i = 0; i < ids; i++) {
            assertTrue(filter.mightContain("shop/" + i), "id " + i);
        }
        long falsePositives = 0;
        for (int i = ids; i < 2 * ids; i++) {
            falsePositives += filter.mightContain("shop/" + i) ? 1 : 0;
        }
        assertTrue(falsePositives < ids * 0.03, falsePositives + " of " + ids + " never added seemed seen");
    }

    @Test
    void anIdIsKeptASpanLongerThanTheStoreKeepsItsSegment() {
        filter.add("shop/old", T0);
        long span = Math.floorDiv(T0, SPAN);
        // The store drops the old id's segment once (span + 1) * SPAN <= stream time - retention.
        long storeDropsIt = (span + 1) * SPAN + RETENTION;
        filter.add("shop/new", storeDropsIt + SPAN - 1);
        assertTrue(filter.mightContain("shop/old"), "kept a span beyond the store");
        filter.add("shop/newer", storeDropsIt + SPAN);
        assertFalse(filter.mightContain("shop/old"), "forgotten a span after the store dropped it");
        assertTrue(filter.mightContain("shop/new"));
    }

    @Test
    void forgettingASpanGivesItsMemoryBack() {
        filter.add("shop/old", T0);
        long withOneSpan = memory.used();
        filter.add("shop/new", T0 + RETENTION + 3 * SPAN);
        assertEquals(withOneSpan, memory.used(), "one span's filter in use, the old one given back");
    }

    @Test
    void whenItsMemoryIsSpentItAnswersMaybeToEverythingAndGivesTheMemoryBack() {
        FilterMemory small = new FilterMemory(SeenIdsFilter.bytesOf(SeenIdsFilter.SMALLEST_CAPACITY));
        SeenIdsFilter limited = new SeenIdsFilter(SPAN, RETENTION, small);
        limited.complete();
        for (int i = 0; i <= SeenIdsFilter.SMALLEST_CAPACITY; i++) {
            limited.add("shop/" + i, T0);
        }
        assertTrue(limited.gaveUp());
        assertTrue(limited.mightContain("shop/never-added"), "the store decides");
        assertEquals(0, small.used());
    }

    @Test
    void withNoMemoryTheStoreDecidesEveryRecord() {
        SeenIdsFilter off = new SeenIdsFilter(SPAN, RETENTION, new FilterMemory(0));
        off.complete();
        off.add("shop/a", T0);
        assertTrue(off.mightContain("shop/b"));
    }

    @Test
    void closingGivesTheMemoryBack() {
        filter.add("shop/a", T0);
        filter.add("shop/b", T0 + SPAN);
        assertTrue(memory.used() > 0);
        filter.close();
        assertEquals(0, memory.used());
    }

    @Test
    void aSpanIsSizedFromTheOneBeforeIt() {
        int ids = 2 * (int) SeenIdsFilter.SMALLEST_CAPACITY;
        for (int i = 0; i < ids; i++) {
            filter.add("shop/" + i, T0);
        }
        long before = memory.used();
        filter.add("shop/next-span", T0 + SPAN);
        assertEquals(SeenIdsFilter.bytesOf(ids + ids / 4), memory.used() - before);
    }
}
