package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filter that gave up comes back a span of receive time later, once memory is free, filled
 * from the store as after a restore, and never answers "not seen" for an id the store holds.
 */
class FirstSightingFilterTest {
    private static final Duration HORIZON = Duration.ofHours(24);
    private static final long SPAN = WindowStores.segmentInterval(HORIZON.plusMinutes(2));
    private static final long RETENTION = HORIZON.plus(ProcessorTopology.DEFAULT_LATE_MARGIN).toMillis();
    /** The start of a span. */
    private static final long T0 = Math.floorDiv(1_795_000_000_000L, SPAN) * SPAN;
    private static final long BLOCK = SeenIdsFilter.bytesOf(SeenIdsFilter.SMALLEST_CAPACITY);

    @TempDir
    Path stateDir;
    private MockProcessorContext<Object, Object> context;
    private WindowStore<String, Long> store;
    private FirstSightingFilter filter;

    @BeforeEach
    void openStore() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "first-sighting-filter-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        context = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir.toFile());
        store = Stores.windowStoreBuilder(WindowStores.plain("seen", Duration.ofMillis(RETENTION), Duration.ofMillis(1),
                HORIZON.plusMinutes(2)), Serdes.String(), Serdes.Long()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
    }

    @AfterEach
    void closeStore() {
        if (filter != null) {
            filter.close();
        }
        store.close();
    }

    @Test
    void aGivenUpFilterComesBackASpanOfReceiveTimeLaterOnceMemoryIsFree() {
        FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
        filter = start(memory);
        long others = othersTakeTheRest(memory);
        put("shop/a", T0); // a new span's block: no room, gives up
        memory.giveBack(others); // the other tasks' spans expired

        put("shop/b", T0 + 1); // the first record after giving up: a span from now
        put("shop/c", T0 + SPAN);
        readEverySlice();
        assertTrue(filter.mightContain("shop/never-put"), "given up until a span has passed");

        put("shop/d", T0 + 1 + SPAN);
        readEverySlice();
        assertFalse(filter.mightContain("shop/never-put"), "back");
        for (String id : List.of("shop/a", "shop/b", "shop/c", "shop/d")) {
            assertTrue(filter.mightContain(id), id);
        }
    }

    @Test
    void aGivenUpFilterIsNotTriedAgainWhileTheMemoryHasNoRoom() {
        FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
        filter = start(memory);
        othersTakeTheRest(memory);
        put("shop/a", T0);
        put("shop/b", T0 + 1);
        put("shop/c", T0 + 1 + SPAN);
        put("shop/d", T0 + 1 + 2 * SPAN);
        assertEquals(0, context.scheduledPunctuators().size(), "no fill started");
        assertTrue(filter.mightContain("shop/never-put"));
    }

    @Test
    void untilItsScanCompletesARefilledFilterAnswersMaybe() {
        FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
        putInStore(StoreScan.SLICE_IDS + 1, T0);
        filter = start(memory);
        readEverySlice();
        refillAfterGivingUp(memory);

        readOneSlice();
        assertTrue(filter.mightContain("shop/never-put"), "a slice left");
        readEverySlice();
        assertFalse(filter.mightContain("shop/never-put"));
    }

    @Test
    void idsPutDuringTheRefillAreFoundAfterwardsWithTheStoresOwn() {
        FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
        int stored = StoreScan.SLICE_IDS + 1;
        putInStore(stored, T0);
        filter = start(memory);
        readEverySlice();
        long refillAt = refillAfterGivingUp(memory); // puts shop/retry, a span newer than the store's newest id

        readOneSlice();
        put("shop/during", refillAt + 1);
        readEverySlice();
        assertFalse(filter.mightContain("shop/never-put"), "filled");
        assertTrue(filter.mightContain("shop/retry"), "put as the refill started");
        assertTrue(filter.mightContain("shop/during"), "put during the refill");
        for (int i = 0; i < stored; i++) {
            assertTrue(filter.mightContain("shop/" + i), "id " + i);
        }
    }

    @Test
    void givingUpAgainInTheRefillsScanGivesEveryByteBack() {
        putInStore(3, T0);
        putInStore(3, T0 + SPAN);
        FilterMemory memory = new FilterMemory(3 * BLOCK);
        filter = start(memory);
        readEverySlice(); // a block for each of the two spans
        long others = othersTakeTheRest(memory); // one block
        put("shop/a", T0 + 2 * SPAN); // a third span: gives up
        assertEquals(others, memory.used(), "its blocks given back");
        put("shop/b", T0 + 2 * SPAN + 1);
        put("shop/c", T0 + 3 * SPAN + 1); // room for two blocks: a refill, with shop/c's span the first

        // By now the store leaves the first span's ids out (older than its stream time less the
        // retention); the second span's block takes the last room, the third's finds none.
        readEverySlice();
        assertTrue(lastFill().cancelled(), "the refill stopped");
        assertEquals(others, memory.used(), "the refill's blocks given back");
        assertTrue(filter.mightContain("shop/never-put"));
        filter.close();
        filter = null;
        memory.giveBack(others);
        assertEquals(0, memory.used());
    }

    @Test
    void givingUpAgainOnARecordDuringTheRefillStopsItAndGivesEveryByteBack() {
        FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
        putInStore(StoreScan.SLICE_IDS + 1, T0);
        filter = start(memory);
        readEverySlice();
        long refillAt = refillAfterGivingUp(memory);
        readOneSlice();

        long others = othersTakeTheRest(memory);
        put("shop/next-span", refillAt + SPAN); // a new span's block: no room
        assertTrue(lastFill().cancelled(), "the refill stopped");
        assertEquals(others, memory.used(), "the refill's blocks given back");
        assertTrue(filter.mightContain("shop/never-put"));
        filter.close();
        filter = null;
        memory.giveBack(others);
        assertEquals(0, memory.used());
    }

    @Test
    void closingTheTaskDuringARefillStopsItAndGivesTheMemoryBack() {
        FilterMemory memory = new FilterMemory(64L * 1024 * 1024);
        putInStore(StoreScan.SLICE_IDS + 1, T0);
        filter = start(memory);
        readEverySlice();
        refillAfterGivingUp(memory);
        readOneSlice();
        assertTrue(memory.used() > 0);

        filter.close();
        filter = null;
        assertTrue(lastFill().cancelled(), "the refill stopped");
        assertEquals(0, memory.used());
    }

    private FirstSightingFilter start(FilterMemory memory) {
        return FirstSightingFilter.start(context, store, "seen", SPAN, RETENTION, memory);
    }

    /** As {@link FirstSighting} does: into the filter, then into the store. */
    private void put(String id, long receivedAt) {
        filter.add(id, receivedAt);
        store.put(id, receivedAt, receivedAt);
    }

    /** Ids the store held when the task started (restored). */
    private void putInStore(int ids, long receivedAt) {
        for (int i = 0; i < ids; i++) {
            store.put("shop/" + i, receivedAt, receivedAt);
        }
    }

    /**
     * The filter gives up on an id of the next span, the memory comes free, and a span of receive
     * time later "shop/retry" is put: a refill starts, not yet read.
     *
     * @return shop/retry's receive time
     */
    private long refillAfterGivingUp(FilterMemory memory) {
        long others = othersTakeTheRest(memory);
        put("shop/gave-up", T0 + SPAN);
        memory.giveBack(others);
        put("shop/first-after", T0 + SPAN + 1);
        long refillAt = T0 + 2 * SPAN + 1;
        put("shop/retry", refillAt);
        assertFalse(lastFill().cancelled(), "a refill started");
        return refillAt;
    }

    /** Other tasks take every byte left. */
    private static long othersTakeTheRest(FilterMemory memory) {
        long rest = memory.limit() - memory.used();
        assertTrue(memory.take(rest));
        return rest;
    }

    private CapturedPunctuator lastFill() {
        List<CapturedPunctuator> fills = context.scheduledPunctuators();
        return fills.get(fills.size() - 1);
    }

    private void readOneSlice() {
        CapturedPunctuator fill = lastFill();
        assertFalse(fill.cancelled(), "filling");
        fill.getPunctuator().punctuate(0);
    }

    private void readEverySlice() {
        for (CapturedPunctuator fill : context.scheduledPunctuators()) {
            for (int slices = 0; !fill.cancelled(); slices++) {
                if (slices == 1_000) {
                    fail("the fill never ended");
                }
                fill.getPunctuator().punctuate(0);
            }
        }
    }
}
