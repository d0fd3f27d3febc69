package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Event loops follow the CPUs the JVM may use, but never more than the heap can hold what each loop holds. */
class EventLoopsTest {
    private static final long MIB = 1024 * 1024;
    private static final int ONE_MIB_EVENTS = 1024 * 1024;

    @Test
    void aLoopMayHoldEighteenMibWithOneMibEvents() {
        assertEquals(18 * MIB, EventLoops.heldPerLoop(ONE_MIB_EVENTS));
    }

    @Test
    void sixtyFourVisibleCoresInA512MibHeapRunFourteenLoops() {
        assertEquals(14, EventLoops.count(0, 64, 512 * MIB, ONE_MIB_EVENTS));
    }

    @Test
    void aContainerLimitedToTwoCpusRunsTwoLoops() {
        assertEquals(2, EventLoops.count(0, 2, 512 * MIB, ONE_MIB_EVENTS));
    }

    @Test
    void largerEventsLeaveRoomForFewerLoops() {
        // 8 MiB events: 18 x 8 = 144 MiB a loop; half of a 2 GiB heap holds 7.
        assertEquals(7, EventLoops.count(0, 64, 2048 * MIB, 8 * ONE_MIB_EVENTS));
    }

    @Test
    void thereIsAlwaysOneLoop() {
        assertEquals(1, EventLoops.count(0, 64, 32 * MIB, ONE_MIB_EVENTS));
    }

    @Test
    void aSetCountIsUsedAsSet() {
        assertEquals(12, EventLoops.count(12, 64, 512 * MIB, ONE_MIB_EVENTS));
    }
}
