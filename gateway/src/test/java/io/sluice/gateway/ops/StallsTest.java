package io.sluice.gateway.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reasons /readyz gives for a loop or the read workers held: past their limits only, and none with a limit of 0. */
class StallsTest {
    private final HeldLoops loops = new HeldLoops(1);
    private final AtomicLong readTurnWait = new AtomicLong();

    @AfterEach
    void close() {
        loops.close();
    }

    @Test
    void aLoopLateByItsLimitAndATurnWaitedForItsLimitAreEachAReason() throws Exception {
        loops.holdLoopOne();
        loops.clock.set(Duration.ofMillis(5_500).toNanos()); // 5 s late
        readTurnWait.set(Duration.ofMillis(10_000).toNanos());

        assertEquals(List.of("event loop 1 is 5.0 s behind: a task has held it, or a backlog of tasks that long (limit 5.0 s)",
                "a project has waited 10.0 s for its turn on the read workers: a body holds them, or they are too few for the "
                        + "projects sending large or compressed bodies (limit 10.0 s)"),
                stalls(Duration.ofSeconds(5), Duration.ofSeconds(10)).reasons());
    }

    @Test
    void aLoopLateAndATurnWaitingJustUnderTheirLimitsAreNoReason() throws Exception {
        loops.holdLoopOne();
        loops.clock.set(Duration.ofMillis(5_499).toNanos());
        readTurnWait.set(Duration.ofMillis(9_999).toNanos());

        assertEquals(List.of(), stalls(Duration.ofSeconds(5), Duration.ofSeconds(10)).reasons());
    }

    @Test
    void limitsOfZeroAreNotChecked() throws Exception {
        loops.holdLoopOne();
        loops.clock.set(Duration.ofSeconds(60).toNanos());
        readTurnWait.set(Duration.ofSeconds(60).toNanos());

        assertEquals(List.of(), stalls(Duration.ZERO, Duration.ZERO).reasons());
    }

    private Stalls stalls(Duration loopLagLimit, Duration readTurnWaitLimit) {
        return new Stalls(loops.heartbeats, readTurnWait::get, loopLagLimit, readTurnWaitLimit);
    }
}
