package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.outcomes.Outcome;
import io.sluice.gateway.ingest.Rejection;

/**
 * The bytes of requests the gateway holds at once (bodies being received or published, and
 * their decompressed form), bounded in total, per client and per project, so memory stays bounded
 * under overload and one client (one address) or one project (one key, public in a browser's DSN)
 * can hold only its share. A request holds the bytes it has sent, taken as they arrive, never
 * what its head announces: a head announcing a body it never sends holds nothing. A request that
 * does not fit gets 503 with Retry-After. Shared by all connections; the total is the in-flight gauge.
 *
 * <p>Projects always leave room for other projects: the last eighth of the budget (the reserve)
 * goes only to a project that, once it took its bytes, holds no more than what is still free. Two
 * projects filling the rest can therefore never starve a third: it finds at least half the
 * reserve, a fourth half of what is left, and so on (each project's own share, as set, applies too).
 */
public final class InFlightBudget {
    private final long maxBytes;
    /** The part of the budget a project may take only while it holds no more than what stays free. */
    private final long reserve;
    private final Shares<InetAddress> perClient;
    private final Shares<String> perProject;
    private final AtomicLong total;

    public InFlightBudget(long maxBytes, long maxBytesPerClient, AtomicLong total) {
        this(maxBytes, maxBytesPerClient, maxBytes, total);
    }

    public InFlightBudget(long maxBytes, long maxBytesPerClient, long maxBytesPerProject, AtomicLong total) {
        this.maxBytes = maxBytes;
        this.perClient = new Shares<>(maxBytesPerClient < maxBytes ? maxBytesPerClient : -1);
        // Held per project always (the reserve's rule reads it), capped at most at the whole budget.
        this.perProject = new Shares<>(Math.min(maxBytesPerProject, maxBytes));
        this.reserve = maxBytes / 8;
        this.total = total;
    }

    /**
     * The reservation of one request of this client and project (its token; null: none) that
     * announces {@code expected} bytes (0: none announced), holding nothing yet: it takes its bytes
     * as they arrive. Throws, so the client does not send a body that would be refused: 413
     * {@code body_too_large} when the request could never hold that much, 503 {@code overloaded}
     * when it does not fit now.
     */
    public Reservation expect(InetAddress client, String project, long expected) {
        Reservation reservation = new Reservation(client, project);
        reservation.requireRoomFor(expected);
        return reservation;
    }

    /** The budget's total bound. */
    public long maxBytes() {
        return maxBytes;
    }

    /** What one client may hold. */
    public long maxBytesPerClient() {
        return perClient.cap < 0 ? maxBytes : perClient.cap;
    }

    /** What one project may ever hold: its share as set, and never the reserve other projects may need. */
    public long maxBytesPerProject() {
        return Math.min(perProject.cap, maxBytes - reserve);
    }

    /** Bytes held now. */
    public long heldBytes() {
        return total.get();
    }

    /** Clients holding bytes now. */
    int clientsHolding() {
        return perClient.held.size();
    }

    /** Projects holding bytes now. */
    int projectsHolding() {
        return perProject.held.size();
    }

    /** Whether {@code bytes} more would fit now; takes nothing. */
    private boolean fits(InetAddress client, String project, long bytes) {
        long after = total.get() + bytes;
        return after <= maxBytes && perClient.fits(client, bytes) && perProject.fits(project, bytes)
                && leavesRoom(project, perProject.heldBy(project) + bytes, after);
    }

    /**
     * Whether a project holding {@code projectAfter} bytes leaves room for the others once the
     * budget holds {@code totalAfter}: outside the reserve always; inside it only when at least as
     * much stays free as the project holds.
     */
    private boolean leavesRoom(String project, long projectAfter, long totalAfter) {
        return project == null || totalAfter <= maxBytes - reserve || projectAfter <= maxBytes - totalAfter;
    }

    private boolean take(InetAddress client, String project, long bytes) {
        if (!perClient.take(client, bytes)) {
            return false;
        }
        if (!perProject.take(project, bytes)) {
            perClient.give(client, bytes);
            return false;
        }
        // Take only what fits: a compare-and-set loop, so the total never exceeds the budget,
        // not even for a moment.
        long current;
        do {
            current = total.get();
            // The project's own bytes, these included (taken above).
            if (current + bytes > maxBytes || !leavesRoom(project, perProject.heldBy(project), current + bytes)) {
                perClient.give(client, bytes);
                perProject.give(project, bytes);
                return false;
            }
        } while (!total.compareAndSet(current, current + bytes));
        return true;
    }

    private void give(InetAddress client, String project, long bytes) {
        total.addAndGet(-bytes);
        perClient.give(client, bytes);
        perProject.give(project, bytes);
    }

    /** Bytes held per holder, each at most {@code cap} (none when negative); a holder holding nothing has no entry. */
    private static final class Shares<K> {
        final long cap;
        final Map<K, Long> held = new ConcurrentHashMap<>();

        Shares(long cap) {
            this.cap = cap;
        }

        long heldBy(K holder) {
            return holder == null ? 0 : held.getOrDefault(holder, 0L);
        }

        boolean fits(K holder, long bytes) {
            return cap < 0 || holder == null || held.getOrDefault(holder, 0L) + bytes <= cap;
        }

        boolean take(K holder, long bytes) {
            if (cap < 0 || holder == null) {
                return true;
            }
            boolean[] taken = {false};
            held.compute(holder, (key, now) -> {
                long was = now == null ? 0 : now;
                if (was + bytes > cap) {
                    return now;
                }
                taken[0] = true;
                // A holder holding nothing keeps no entry (an empty body takes 0 bytes and gives none back).
                return was + bytes == 0 ? null : was + bytes;
            });
            return taken[0];
        }

        void give(K holder, long bytes) {
            if (cap >= 0 && holder != null && bytes > 0) {
                held.computeIfPresent(holder, (key, now) -> now - bytes <= 0 ? null : now - bytes);
            }
        }
    }

    /**
     * One request's share, from its head until its answer is written: what of its body has
     * arrived, plus what it takes once decompressed. Taken on the connection's event loop and on a
     * read worker, so every change is synchronized.
     */
    public final class Reservation {
        private final InetAddress client;
        private final String project;
        private long bytes;
        /** Released: its request was answered or its connection closed; it takes nothing more. */
        private boolean released;

        private Reservation(InetAddress client, String project) {
            this.client = client;
            this.project = project;
        }

        /**
         * Takes {@code more} bytes for the same request, or throws: 413 {@code body_too_large}
         * when this request could never hold that much (its share is smaller), 503
         * {@code overloaded} when it could once others have finished.
         */
        public synchronized void extend(long more) {
            if (bytes + more > ceiling()) {
                throw tooLarge();
            }
            if (!tryExtend(more)) {
                throw overloaded();
            }
        }

        /** Throws as {@link #extend} would for {@code more} bytes, but takes nothing. */
        void requireRoomFor(long more) {
            if (bytes + more > ceiling()) {
                throw tooLarge();
            }
            if (!fits(client, project, more)) {
                throw overloaded();
            }
        }

        private Rejection tooLarge() {
            return new Rejection(Outcome.BODY_TOO_LARGE, "this request would need more than the " + ceiling()
                    + " bytes in flight (as sent and decompressed) it may ever hold");
        }

        private Rejection overloaded() {
            return new Rejection(Outcome.OVERLOADED,
                    "the gateway is at its limit of requests in flight (in total, for this client or this project); retry later");
        }

        /**
         * Takes {@code more} bytes for the same request if they fit now; never once released (a
         * body read on a worker may outlive its connection: what it took then would never be given back).
         */
        public synchronized boolean tryExtend(long more) {
            if (released || !take(client, project, more)) {
                return false;
            }
            bytes += more;
            return true;
        }

        /** The most this request could ever hold: the total, its client's and its project's shares. */
        public long ceiling() {
            long ceiling = maxBytes;
            if (client != null && perClient.cap >= 0) {
                ceiling = Math.min(ceiling, perClient.cap);
            }
            if (project != null) {
                ceiling = Math.min(ceiling, maxBytesPerProject());
            }
            return ceiling;
        }

        /**
         * Gives back {@code fewer} of the bytes this request holds (memory it held only for a
         * while); nothing once released (a worker may give back after its connection closed).
         */
        public synchronized void giveBack(long fewer) {
            if (released) {
                return;
            }
            long given = Math.min(fewer, bytes);
            give(client, project, given);
            bytes -= given;
        }

        /** Gives back everything this request holds. */
        public synchronized void release() {
            give(client, project, bytes);
            bytes = 0;
            released = true;
        }

        public synchronized long bytes() {
            return bytes;
        }
    }
}
