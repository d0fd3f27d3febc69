package io.sluice.gateway.http;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Work on a request's items that must not hold its event loop for long: done a slice per task of
 * the loop, each slice at most {@code sliceBytes} of items (or one item, when larger), the rest
 * queued behind the loop's other work (other connections are served in between).
 */
final class Slices {
    private Slices() {
    }

    /**
     * Runs {@code each} on the items in order, the first slice now, the others in later tasks of
     * {@code loop}. Completes once all ran, or exceptionally with the first exception thrown (the
     * items after it are not run).
     */
    static <T> CompletableFuture<Void> inSlices(List<T> items, ToLongFunction<T> bytes, long sliceBytes, Consumer<T> each,
                                                Executor loop) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        run(items, 0, bytes, sliceBytes, each, loop, done);
        return done;
    }

    private static <T> void run(List<T> items, int from, ToLongFunction<T> bytes, long sliceBytes, Consumer<T> each, Executor loop,
                                CompletableFuture<Void> done) {
        try {
            long used = 0;
            for (int i = from; i < items.size(); i++) {
                T item = items.get(i);
                long size = bytes.applyAsLong(item);
                if (used > 0 && used + size > sliceBytes) {
                    int next = i;
                    loop.execute(() -> run(items, next, bytes, sliceBytes, each, loop, done));
                    return;
                }
                each.accept(item);
                used += size;
            }
            done.complete(null);
        } catch (Throwable e) { // an Error too: a later slice runs as a task of the loop, where it would leave done pending
            done.completeExceptionally(e);
        }
    }
}
