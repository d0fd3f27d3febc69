package io.sluice.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A process's CPU split into components by its threads' names; what no component claims is the process's "other". */
class CpuClockTest {
    private static final List<CpuClock.Component> GATEWAY = List.of(
            new CpuClock.Component("gateway: event loops", List.of("multiThreadIoEv")),
            new CpuClock.Component("gateway: Kafka producer I/O", List.of("kafka-producer-")));

    @Test
    void threadsAreChargedToTheFirstComponentWhoseNamePrefixTheyHave() {
        CpuClock clock = new CpuClock("gateway", GATEWAY, () -> List.of(new ProcStat("multiThreadIoEv", 300),
                new ProcStat("multiThreadIoEv", 200), new ProcStat("kafka-producer-", 150), new ProcStat("C2 CompilerThre", 90)),
                () -> 8.0);
        assertEquals(Map.of("gateway: event loops", 5.0, "gateway: Kafka producer I/O", 1.5, "gateway: other (GC, JIT, the rest)", 1.5),
                clock.read());
    }

    @Test
    void theOtherShareIsTheProcessTotalLessTheNamedThreadsSoExitedThreadsAreNotLost() {
        // the process total (/proc/<pid>/stat) keeps the ticks of threads that exited; a thread's own file is gone with it
        CpuClock clock = new CpuClock("gateway", GATEWAY, () -> List.of(new ProcStat("multiThreadIoEv", 100)), () -> 4.0);
        assertEquals(3.0, clock.read().get("gateway: other (GC, JIT, the rest)"), 1e-9);
    }

    @Test
    void aProcessWithoutComponentsIsChargedWholeUnderItsName() {
        CpuClock clock = new CpuClock("clickhouse", List.of(), () -> List.of(new ProcStat("BgSchPool", 40)), () -> 2.5);
        assertEquals(Map.of("clickhouse", 2.5), clock.read());
    }

    @Test
    void aThreadsCpuIsReadFromProcByItsName() throws Exception {
        java.util.concurrent.CountDownLatch spun = new java.util.concurrent.CountDownLatch(1);
        // the thread stays alive once it has spun: an exited thread's stat file is gone
        Thread alive = new Thread(() -> {
            spinForACpuThird();
            spun.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException done) {
                // read
            }
        }, "cpu-clock-live");
        alive.start();
        try {
            spun.await();
            CpuClock clock = CpuClock.of("test", ProcessHandle.current().pid(),
                    List.of(new CpuClock.Component("spinner", List.of("cpu-clock-live"))));
            // 1/3 s of CPU; the kernel's user and system ticks are sampled, a few 10 ms ticks either way
            assertEquals(0.333, clock.read().get("spinner"), 0.05);
        } finally {
            alive.interrupt();
        }
    }

    private static void spinForACpuThird() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long blackhole = 0;
        while (threads.getCurrentThreadCpuTime() < 333_000_000L) {
            blackhole += System.nanoTime() % 7;
        }
        if (blackhole == 42) {
            System.out.println(blackhole);
        }
    }
}
