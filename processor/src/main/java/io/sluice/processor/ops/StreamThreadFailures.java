package io.sluice.processor.ops;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The stream threads' failures, as Kafka Streams' uncaught exception handler reports them, and
 * whether they come so often that the processor is not doing its work. The handler replaces a
 * failed thread, and the new thread takes the failed task again: a failure that heals (a broker
 * away for a moment) is seen once or twice, but a task that fails deterministically (a record or
 * a stored value it cannot read, e.g. a store written by a newer version) fails again on every new
 * thread, every session timeout, while Streams is RUNNING most of the time and that task's events wait.
 */
public final class StreamThreadFailures {
    /** One failure and its retry are what a transient failure looks like; a third within the window is a loop. */
    static final int UNHEALTHY_FAILURES = 3;
    /**
     * A task that fails deterministically fails again as soon as a new thread has it: when the
     * failed thread's consumer session has timed out (45 s by default; measured: every 45 s). The
     * window is five minutes, or three session timeouts when that is longer, so that it always holds
     * 3 failures of such a loop; readiness returns at most a window after the last failure.
     */
    static final Duration SHORTEST_WINDOW = Duration.ofMinutes(5);
    /** The consumer's default session.timeout.ms. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(45);
    /**
     * Failures this close to the previous one counted are one event: one cause (a broker gone too
     * long) can fail every stream thread at once, and a failing task comes back no sooner than a
     * session timeout, which Kafka keeps at 6 s or more.
     */
    static final Duration SAME_EVENT = Duration.ofSeconds(5);
    /** The exception's description is shown on the admin port: one line, no longer than this. */
    static final int MAX_DESCRIPTION_CHARS = 300;
    /** A failure costs at least a rebalance, so a window holds far fewer; bounds memory all the same. */
    private static final int MAX_REMEMBERED = 1000;
    /** How deep the cause chain is followed (it may be cyclic). */
    private static final int MAX_CAUSES = 20;

    private final Duration window;
    private final LongSupplier nanoTime;
    /** When the failures of the window happened (nanoTime), oldest first; one per {@link #SAME_EVENT}. */
    private final ArrayDeque<Long> recent = new ArrayDeque<>();
    private long total;
    private String last = "";

    public StreamThreadFailures() {
        this(DEFAULT_SESSION_TIMEOUT);
    }

    /** @param sessionTimeout the stream threads' consumer session timeout: how often a failing task fails again */
    public StreamThreadFailures(Duration sessionTimeout) {
        this(sessionTimeout, System::nanoTime);
    }

    StreamThreadFailures(Duration sessionTimeout, LongSupplier nanoTime) {
        this.window = window(sessionTimeout);
        this.nanoTime = nanoTime;
    }

    static Duration window(Duration sessionTimeout) {
        Duration threeSessions = sessionTimeout.multipliedBy(3);
        return threeSessions.compareTo(SHORTEST_WINDOW) > 0 ? threeSessions : SHORTEST_WINDOW;
    }

    /** Called from the uncaught exception handler, on the failed thread. */
    public synchronized void record(Throwable error) {
        long now = nanoTime.getAsLong();
        forgetBefore(now);
        if (recent.isEmpty() || now - recent.peekLast() >= SAME_EVENT.toNanos()) {
            if (recent.size() == MAX_REMEMBERED) {
                recent.removeFirst();
            }
            recent.addLast(now);
        }
        total++;
        last = describe(error);
    }

    /** Every failure since start, also those older than the window. */
    public synchronized long total() {
        return total;
    }

    /** Why the processor is not ready, while stream threads failed {@link #UNHEALTHY_FAILURES} times within the window. */
    public synchronized Optional<String> unhealthy() {
        forgetBefore(nanoTime.getAsLong());
        if (recent.size() < UNHEALTHY_FAILURES) {
            return Optional.empty();
        }
        return Optional.of("stream threads failed " + recent.size() + " times in the last " + window.toMinutes() + " min; last: " + last);
    }

    private void forgetBefore(long now) {
        while (!recent.isEmpty() && now - recent.peekFirst() >= window.toNanos()) {
            recent.removeFirst();
        }
    }

    /**
     * "Class: message" of the exception and, when there is one, of its root cause (Streams wraps
     * what failed: the wrapper names the task, the cause says why); first lines only, at most
     * {@link #MAX_DESCRIPTION_CHARS}. Messages come from Streams and the serdes, never a stack trace.
     */
    static String describe(Throwable error) {
        Throwable root = error;
        for (int depth = 0; depth < MAX_CAUSES && root.getCause() != null && root.getCause() != root; depth++) {
            root = root.getCause();
        }
        String text = oneLine(error) + (root == error ? "" : " (cause: " + oneLine(root) + ")");
        if (text.length() <= MAX_DESCRIPTION_CHARS) {
            return text;
        }
        int end = MAX_DESCRIPTION_CHARS - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--; // never half a character
        }
        return text.substring(0, end) + "…";
    }

    private static String oneLine(Throwable error) {
        String name = error.getClass().getSimpleName().isEmpty() ? error.getClass().getName() : error.getClass().getSimpleName();
        String message = error.getMessage() == null ? "" : error.getMessage().lines().findFirst().orElse("")
                .replaceAll("[\\p{Cc}\\p{Zl}\\p{Zp}]", " ").strip(); // also what lines() does not split at
        return message.isEmpty() ? name : name + ": " + message;
    }
}
