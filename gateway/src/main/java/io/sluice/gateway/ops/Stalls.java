package io.sluice.gateway.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Whether the gateway's own threads keep up, for {@code /readyz}: an event loop whose heartbeat is
 * late by its limit or more holds its connections' requests; a project that waited its limit or more
 * for its turn on the read workers has their large and compressed bodies unread (a body holds them,
 * or they are too few for the projects sending). Either is a reason to leave rotation until it
 * passes. The limits are seconds, far above what a loop or a turn waits under load (milliseconds,
 * and a read of half a second), so ordinary load does not flap; a limit of 0 is not checked.
 */
public final class Stalls {
    private final EventLoopHeartbeats loops;
    private final LongSupplier readTurnWaitNanos;
    private final Duration loopLagLimit;
    private final Duration readTurnWaitLimit;

    /** @param readTurnWaitNanos how long the project waiting longest has waited for its turn on the read workers */
    public Stalls(EventLoopHeartbeats loops, LongSupplier readTurnWaitNanos, Duration loopLagLimit, Duration readTurnWaitLimit) {
        this.loops = loops;
        this.readTurnWaitNanos = readTurnWaitNanos;
        this.loopLagLimit = loopLagLimit;
        this.readTurnWaitLimit = readTurnWaitLimit;
    }

    /** Why the gateway is not ready now, of these: one reason per loop late, and one for the read workers. */
    public List<String> reasons() {
        List<String> reasons = new ArrayList<>();
        for (int loop = 0; loop < loops.loops(); loop++) {
            long lag = loops.lagNanos(loop);
            if (past(lag, loopLagLimit)) {
                reasons.add("event loop " + (loop + 1) + " is " + seconds(lag) + " s behind: a task has held it, or a backlog of "
                        + "tasks that long (limit " + seconds(loopLagLimit.toNanos()) + " s)");
            }
        }
        long turnWait = readTurnWaitNanos.getAsLong();
        if (past(turnWait, readTurnWaitLimit)) {
            reasons.add("a project has waited " + seconds(turnWait) + " s for its turn on the read workers: a body holds them, "
                    + "or they are too few for the projects sending large or compressed bodies (limit "
                    + seconds(readTurnWaitLimit.toNanos()) + " s)");
        }
        return reasons;
    }

    private static boolean past(long nanos, Duration limit) {
        return !limit.isZero() && nanos >= limit.toNanos();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
