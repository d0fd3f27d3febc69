package io.sluice.gateway.http;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few threads that read the bodies whose reading would hold an event loop for long (a large or
 * compressed envelope: decompressing and parsing 8 MiB took the loop 300–600 ms, during which its
 * other connections waited). Their answers are still written on the loop. Bounded: at most
 * {@code threads} bodies are read at once (each may hold a parse tree no budget counts, as a loop
 * may), and at most {@code queued} wait; beyond that a request gets {@code 503 overloaded}. A
 * request in the queue holds its in-flight reservation (even once its connection closed: it is
 * dropped unread when a worker reaches it), so the budget bounds the queue's memory.
 *
 * <p>Fair between projects: each project's bodies wait in its own line, and a free worker takes
 * the next body of the project it read least recently, so a project sending many slow bodies
 * delays another's by one read, not by all of its own (with one worker, ten 0.5 s exports a
 * second held everyone's compressed requests until their clients timed out). Each project holds
 * at most a quarter of the places, waiting or being read, so it cannot fill the queue and push the
 * others into 503 either. Requests not authenticated yet (a dsn-only envelope: its key is in its
 * body) are one line together, with one such share: a stranger naming a project in its path takes
 * neither that project's turn nor its places.
 *
 * <p>{@link #stop} ends the reading when the gateway's drain timeout has passed: a body still
 * waiting, or handed over later, is never dropped but answered unread ({@link Read#refuseUnread}),
 * which gives its reservation back; a read under way ends at its next step, refused as well.
 */
public final class ReadWorkers implements Executor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReadWorkers.class);

    /**
     * A body to read, and how its request is answered instead when the workers stop before one
     * reaches it. The gateway hands over only these.
     *
     * @param project      the token of the project whose turn it waits for; null for a request not
     *                     authenticated yet (its key is in its body)
     * @param read         reads the body and hands the request on
     * @param refuseUnread answers the request without reading it; cheap (it runs on the stopping
     *                     thread, or on the loop that hands it over after the stop)
     */
    public record Read(String project, Runnable read, Runnable refuseUnread) implements Runnable {
        @Override
        public void run() {
            read.run();
        }
    }

    /** One project's line (or the strangers'), while it has a body waiting or being read. */
    private static final class Line {
        final String project;
        final ArrayDeque<Read> waiting = new ArrayDeque<>();
        int reading;
        /** When a worker last took one of its bodies (the workers' count of takes); 0: never since it had none. */
        long lastTake;
        /** When it began waiting for its next turn, on the clock. */
        long waitingSince;
        /** Breaks ties between lines never taken from: the one that came first goes first. */
        final long arrival;

        Line(String project, long arrival) {
            this.project = project;
            this.arrival = arrival;
        }

        int held() {
            return waiting.size() + reading;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition bodyWaiting = lock.newCondition();
    /** The lines with a body waiting or being read, by project (null: the strangers'). */
    private final Map<String, Line> lines = new HashMap<>();
    /** The lines with a body waiting, the one taken from least recently first. */
    private final PriorityQueue<Line> turns = new PriorityQueue<>(
            Comparator.<Line>comparingLong(line -> line.lastTake).thenComparingLong(line -> line.arrival));
    private final int queued;
    /** The places (waiting or being read) one line may hold. */
    private final int share;
    private final LongSupplier nanoTime;
    private final List<Thread> threads = new ArrayList<>();
    /** Written under the lock, read without it (by /readyz, metrics and the stop). */
    private volatile int waiting;
    private volatile int reading;
    private long takes;
    private long arrivals;
    private volatile boolean stopped;

    public ReadWorkers(int threads, int queued) {
        this(threads, queued, System::nanoTime);
    }

    /** @param nanoTime the clock of {@link #longestTurnWaitNanos} */
    public ReadWorkers(int threads, int queued, LongSupplier nanoTime) {
        this.queued = queued;
        this.share = Math.max(1, queued / 4);
        this.nanoTime = nanoTime;
        for (int i = 1; i <= threads; i++) {
            Thread thread = new Thread(this::work, "sluice-read-" + i);
            thread.setDaemon(true);
            this.threads.add(thread);
            thread.start();
        }
    }

    /** Threads for {@code eventLoops} loops: half as many, at least one (they share the loops' cores). */
    public static int threadsFor(int eventLoops) {
        return Math.max(1, eventLoops / 2);
    }

    /**
     * Reads {@code body} (a {@link Read}) on a worker, in its project's turn; once the workers
     * stopped, refuses it unread at once.
     *
     * @throws RejectedExecutionException when {@code queued} bodies already wait, or its project
     *                                    (or the strangers) holds its share of the places
     */
    @Override
    public void execute(Runnable body) {
        if (!(body instanceof Read read)) {
            throw new IllegalArgumentException("the read workers read requests' bodies only (a Read)");
        }
        lock.lock();
        try {
            if (!stopped) {
                enqueue(read);
                return;
            }
        } finally {
            lock.unlock();
        }
        read.refuseUnread().run();
    }

    private void enqueue(Read read) {
        if (waiting >= queued) {
            throw new RejectedExecutionException("the read workers' queue is full");
        }
        Line line = lines.computeIfAbsent(read.project(), project -> new Line(project, ++arrivals));
        if (line.held() >= share) {
            throw new RejectedExecutionException(read.project() == null
                    ? "the requests not authenticated yet hold their share of the read workers' places"
                    : "the project holds its share of the read workers' places");
        }
        line.waiting.add(read);
        waiting++;
        if (line.waiting.size() == 1) {
            waitForTurn(line);
        }
        bodyWaiting.signal();
    }

    private void waitForTurn(Line line) {
        line.waitingSince = nanoTime.getAsLong();
        turns.add(line);
    }

    /** A worker: takes the next body in turn and reads it, until the workers stop. */
    private void work() {
        while (true) {
            Line line;
            Read read;
            lock.lock();
            try {
                while (!stopped && turns.isEmpty()) {
                    bodyWaiting.awaitUninterruptibly();
                }
                if (stopped) {
                    return;
                }
                line = turns.poll();
                read = line.waiting.poll();
                waiting--;
                line.reading++;
                reading++;
                line.lastTake = ++takes;
                if (!line.waiting.isEmpty()) {
                    waitForTurn(line);
                }
            } finally {
                lock.unlock();
            }
            try {
                read.run();
            } catch (RuntimeException unexpected) { // a Read answers its request itself; this is a bug, not a refusal
                LOG.error("a read worker's body failed", unexpected);
            } finally {
                done(line);
            }
        }
    }

    private void done(Line line) {
        lock.lock();
        try {
            line.reading--;
            reading--;
            if (line.held() == 0) {
                lines.remove(line.project);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * How long the project waiting longest for its turn has waited, since its last body was taken
     * or it began to wait; 0 when none waits. Not a body's wait: a project flooding the workers waits
     * long for its own later bodies while every project still gets its turn; a turn waits long when
     * the workers are held (a body that takes them for long) or too few for the projects sending.
     */
    public long longestTurnWaitNanos() {
        lock.lock();
        try {
            long now = nanoTime.getAsLong();
            long longest = 0;
            for (Line line : turns) {
                longest = Math.max(longest, now - line.waitingSince);
            }
            return longest;
        } finally {
            lock.unlock();
        }
    }

    /** Bodies waiting for a worker now. */
    public int waiting() {
        return waiting;
    }

    /**
     * Stops reading: every body still waiting is answered unread now, and so is every one handed
     * over from now on; a read under way sees {@link #stopped} and ends at its next step. Runs
     * nothing of what waited. Idempotent.
     *
     * @return the bodies refused unread now
     */
    public int stop() {
        List<Read> refused = new ArrayList<>();
        lock.lock();
        try {
            stopped = true;
            for (Line line : turns) {
                refused.addAll(line.waiting);
                line.waiting.clear();
                if (line.reading == 0) {
                    lines.remove(line.project);
                }
            }
            turns.clear();
            waiting = 0;
            bodyWaiting.signalAll();
        } finally {
            lock.unlock();
        }
        refused.forEach(read -> read.refuseUnread().run());
        return refused.size();
    }

    /** Bodies being read now. */
    public int reading() {
        return reading;
    }

    /** Whether {@link #stop} was called: a read under way ends at its next step, refused (see IngestPath). */
    public boolean stopped() {
        return stopped;
    }

    /** Stops reading ({@link #stop}), and interrupts the reads still under way. */
    @Override
    public void close() {
        stop();
        threads.forEach(Thread::interrupt);
    }
}
