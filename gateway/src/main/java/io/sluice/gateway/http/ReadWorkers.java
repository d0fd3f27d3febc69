package io.sluice.gateway.http;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A few threads that read the bodies whose reading would hold an event loop for long (a large or
 * compressed envelope: decompressing and parsing 8 MiB took the loop 300–600 ms, during which its
 * other connections waited). Their answers are still written on the loop. Bounded: at most
 * {@code threads} bodies are read at once (each may hold a parse tree no budget counts, as a loop
 * may), and at most {@code queued} wait; beyond that a request gets {@code 503 overloaded}. A
 * request in the queue holds its in-flight reservation (even once its connection closed: it is
 * dropped unread when a worker reaches it), so the budget bounds the queue's memory.
 * Requests not authenticated yet (a dsn-only envelope: its key is in its body) hold at most a
 * quarter of the places ({@link #forStrangers}), so a stranger sending many small compressed
 * envelopes cannot fill the queue and push the tenants' requests into 503.
 *
 * <p>{@link #stop} ends the reading when the gateway's drain timeout has passed: a body still
 * waiting, or handed over later, is never dropped but answered unread ({@link Read#refuseUnread}),
 * which gives its reservation back; a read under way ends at its next step, refused as well.
 * JDK's {@link ThreadPoolExecutor} as it is: a fixed pool with a bounded queue is all this needs.
 */
public final class ReadWorkers implements Executor, AutoCloseable {
    /**
     * A body to read, and how its request is answered instead when the workers stop before one
     * reaches it. The gateway hands over only these; any other task has no request behind it.
     *
     * @param read         reads the body and hands the request on
     * @param refuseUnread answers the request without reading it; cheap (it runs on the stopping
     *                     thread, or on the loop that hands it over after the stop)
     */
    public record Read(Runnable read, Runnable refuseUnread) implements Runnable {
        @Override
        public void run() {
            read.run();
        }
    }

    private final ThreadPoolExecutor pool;
    /** Requests not authenticated yet that may wait or be read at once. */
    private final int strangersShare;
    /** Those waiting or being read now. */
    private final AtomicInteger strangers = new AtomicInteger();

    public ReadWorkers(int threads, int queued) {
        this.strangersShare = Math.max(1, queued / 4);
        AtomicInteger number = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queued), runnable -> {
            Thread thread = new Thread(runnable, "sluice-read-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, ReadWorkers::notTaken);
    }

    /** Threads for {@code eventLoops} loops: half as many, at least one (they share the loops' cores). */
    public static int threadsFor(int eventLoops) {
        return Math.max(1, eventLoops / 2);
    }

    /**
     * Reads {@code read} on a worker; once the workers stopped, refuses it unread at once.
     *
     * @throws java.util.concurrent.RejectedExecutionException when {@code queued} bodies already wait
     */
    @Override
    public void execute(Runnable read) {
        pool.execute(read);
    }

    /**
     * Reads bodies whose sender is not authenticated yet, within their share of the places.
     * Its {@code execute} throws {@link RejectedExecutionException} when the share or the queue is full.
     */
    public Executor forStrangers() {
        return read -> {
            if (strangers.incrementAndGet() > strangersShare) {
                strangers.decrementAndGet();
                throw new RejectedExecutionException("the requests not authenticated yet hold their share of the read workers' queue");
            }
            try {
                pool.execute(new Read(() -> {
                    try {
                        read.run();
                    } finally {
                        strangers.decrementAndGet();
                    }
                }, () -> {
                    strangers.decrementAndGet();
                    refuseUnread(read);
                }));
            } catch (RejectedExecutionException full) {
                strangers.decrementAndGet();
                throw full;
            }
        };
    }

    /**
     * Stops reading: every body still waiting is answered unread now, and so is every one handed
     * over from now on; a read under way sees {@link #stopped} and ends at its next step. Runs
     * nothing of what waited. Idempotent.
     *
     * @return the bodies refused unread now
     */
    public int stop() {
        pool.shutdown(); // from here, execute() hands its task to notTaken, which refuses it
        List<Runnable> waiting = new ArrayList<>();
        pool.getQueue().drainTo(waiting);
        waiting.forEach(ReadWorkers::refuseUnread);
        return waiting.size();
    }

    /** Bodies being read now. */
    public int reading() {
        return pool.getActiveCount();
    }

    /** Whether {@link #stop} was called: a read under way ends at its next step, refused (see IngestPath). */
    public boolean stopped() {
        return pool.isShutdown();
    }

    /** A task the pool did not take: refused unread once the workers stopped, otherwise the queue is full. */
    private static void notTaken(Runnable task, ThreadPoolExecutor pool) {
        if (pool.isShutdown()) {
            refuseUnread(task);
            return;
        }
        throw new RejectedExecutionException("the read workers' queue is full");
    }

    private static void refuseUnread(Runnable task) {
        if (task instanceof Read read) {
            read.refuseUnread().run();
        }
    }

    /** Stops reading ({@link #stop}), and interrupts the reads still under way. */
    @Override
    public void close() {
        stop();
        pool.shutdownNow();
    }
}
