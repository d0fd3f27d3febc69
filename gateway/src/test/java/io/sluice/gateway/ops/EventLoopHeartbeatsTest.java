package io.sluice.gateway.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.sluice.testkit.Await;

/** A loop held by a task lags by how long it was held, past its heartbeat's interval; the others do not. */
class EventLoopHeartbeatsTest {
    private final HeldLoops loops = new HeldLoops(2);

    @AfterEach
    void close() {
        loops.close();
    }

    @Test
    void aLoopHeldByATaskLagsByHowLongItWasHeldPastItsInterval() throws Exception {
        loops.holdLoopOne();
        loops.clock.set(Duration.ofMillis(6_700).toNanos());

        assertEquals(Duration.ofMillis(6_200).toNanos(), loops.heartbeats.lagNanos(0));
        assertEquals(0L, Await.until(Duration.ofSeconds(30), 0L, () -> loops.heartbeats.lagNanos(1)), "loop 2 ran its heartbeat");
    }

    @Test
    void aHeldLoopIsOnTimeAgainOnceItRuns() throws Exception {
        loops.holdLoopOne();
        loops.clock.set(Duration.ofMillis(6_700).toNanos());
        loops.release();

        assertEquals(0L, Await.until(Duration.ofSeconds(30), 0L, () -> loops.heartbeats.lagNanos(0)));
    }
}
