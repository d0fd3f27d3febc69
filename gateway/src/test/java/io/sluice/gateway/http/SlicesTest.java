package io.sluice.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

class SlicesTest {
    /** An event loop's task queue, run by hand: what each task did is what one turn of the loop would do. */
    private final ArrayDeque<Runnable> loop = new ArrayDeque<>();
    private final List<List<Integer>> tasks = new ArrayList<>();

    private CompletableFuture<Void> inSlices(List<Integer> sizes, long sliceBytes, RuntimeException failAt100) {
        tasks.add(new ArrayList<>());
        return Slices.inSlices(sizes, Integer::longValue, sliceBytes, size -> {
            if (failAt100 != null && size == 100) {
                throw failAt100;
            }
            tasks.get(tasks.size() - 1).add(size);
        }, task -> loop.add(() -> {
            tasks.add(new ArrayList<>());
            task.run();
        }));
    }

    private void runLoop() {
        while (!loop.isEmpty()) {
            loop.poll().run();
        }
    }

    @Test
    void eachTaskDoesAtMostASliceOfItemsTheRestQueuedBehindTheLoopsOtherWork() {
        CompletableFuture<Void> done = inSlices(List.of(60, 60, 60, 60, 60, 60, 60), 128, null);
        assertEquals(List.of(List.of(60, 60)), tasks, "the first slice at once");
        assertEquals(1, loop.size(), "the rest waits its turn");
        runLoop();
        assertEquals(List.of(List.of(60, 60), List.of(60, 60), List.of(60, 60), List.of(60)), tasks);
        assertTrue(done.isDone() && !done.isCompletedExceptionally());
    }

    @Test
    void anItemLargerThanASliceIsASliceOfItsOwn() {
        inSlices(List.of(10, 500, 10, 10), 128, null);
        runLoop();
        assertEquals(List.of(List.of(10), List.of(500), List.of(10, 10)), tasks);
    }

    @Test
    void itemsOfNoSizeNeverMakeATaskOfTheirOwn() {
        inSlices(List.of(0, 0, 128, 0, 0), 128, null);
        runLoop();
        assertEquals(List.of(List.of(0, 0, 128, 0, 0)), tasks);
    }

    @Test
    void theFirstFailureEndsTheWorkAndIsWhatTheFutureFailsWith() {
        Rejection refused = new Rejection(Outcome.INVALID_JSON, "item 3 is not JSON");
        CompletableFuture<Void> done = inSlices(List.of(60, 60, 100, 60), 128, refused);
        runLoop();
        assertEquals(List.of(List.of(60, 60), List.of()), tasks, "nothing after the failing item");
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, done::get);
        assertSame(refused, failed.getCause());
    }

    /** Runs each task at once, and swallows what escapes it, as an event loop logs it and goes on. */
    private static void runSwallowing(Runnable task) {
        try {
            task.run();
        } catch (Throwable escaped) {
            // the loop would log it: nobody would complete the request's future
        }
    }

    @Test
    void anErrorInALaterSliceCompletesTheFutureExceptionally() throws Exception {
        List<Integer> seen = new ArrayList<>();
        CompletableFuture<Void> done = Slices.inSlices(List.of(1, 2, 3), item -> 10, 10, item -> {
            if (item == 2) {
                throw new StackOverflowError("an Error in the second slice");
            }
            seen.add(item);
        }, SlicesTest::runSwallowing);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> done.get(5, TimeUnit.SECONDS));
        assertTrue(failed.getCause() instanceof StackOverflowError, failed.toString());
        assertEquals(List.of(1), seen);
    }
}
