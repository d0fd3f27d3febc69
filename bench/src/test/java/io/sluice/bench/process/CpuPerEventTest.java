package io.sluice.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * CPU per event: each component's CPU over the measured interval, less what it burns idle at the rate
 * measured just before, divided by the events.
 */
class CpuPerEventTest {
    private static final long SECOND = 1_000_000_000L;
    /** A process in two parts beside a process in one, and their CPU seconds a second later. */
    private static final Map<String, Double> PARTS = Map.of("gateway: event loops", 1.0, "gateway: other (GC, JIT, the rest)", 1.0,
            "broker", 1.0);
    private static final Map<String, Double> PARTS_A_SECOND_LATER = Map.of("gateway: event loops", 1.3,
            "gateway: other (GC, JIT, the rest)", 1.1, "broker", 1.5);

    private static CpuSample at(long seconds, double gateway, double broker) {
        Map<String, Double> cpu = new LinkedHashMap<>();
        cpu.put("gateway", gateway);
        cpu.put("broker", broker);
        return new CpuSample(seconds * SECOND, cpu);
    }

    @Test
    void theIdleRateIsSubtractedOverTheWholeMeasuredInterval() {
        // idle: 5 s, gateway 0.5 s (0.1 core), broker 1.0 s (0.2 core); load: 10 s, gateway 3.0 s, broker 6.0 s; 20,000 events
        CpuPerEvent cost = CpuPerEvent.of(at(0, 10, 20), at(5, 10.5, 21), at(5, 10.5, 21), at(15, 13.5, 27), 20_000);
        assertEquals(List.of("gateway", "broker"), List.copyOf(cost.microsByComponent().keySet()));
        // (3.0 - 0.1 × 10) / 20,000 = 100 µs; (6.0 - 0.2 × 10) / 20,000 = 200 µs
        assertEquals(100.0, cost.microsByComponent().get("gateway"), 1e-9);
        assertEquals(200.0, cost.microsByComponent().get("broker"), 1e-9);
    }

    @Test
    void theWholePipelineIsTheSumOfItsComponents() {
        CpuPerEvent cost = CpuPerEvent.of(at(0, 10, 20), at(5, 10.5, 21), at(5, 10.5, 21), at(15, 13.5, 27), 20_000);
        assertEquals(300.0, cost.totalMicros(), 1e-9);
    }

    @Test
    void theIdleRatesAreKeptAsCoresBesideTheCost() {
        CpuPerEvent cost = CpuPerEvent.of(at(0, 10, 20), at(5, 10.5, 21), at(5, 10.5, 21), at(15, 13.5, 27), 20_000);
        assertEquals(0.1, cost.idleCores().get("gateway"), 1e-9);
        assertEquals(0.3, cost.idleCores().values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    }

    @Test
    void theIdleStackIsEveryComponentsIdleRateAndAProcessesIsItsComponents() {
        // idle 1 s: gateway's loops 0.3 s and other 0.1 s, broker 0.5 s
        CpuPerEvent cost = CpuPerEvent.of(new CpuSample(0, PARTS), new CpuSample(SECOND, PARTS_A_SECOND_LATER),
                new CpuSample(SECOND, PARTS_A_SECOND_LATER), new CpuSample(2 * SECOND, PARTS_A_SECOND_LATER), 1_000);
        assertEquals(0.4, cost.idleCoresOf("gateway"), 1e-9);
        assertEquals(0.5, cost.idleCoresOf("broker"), 1e-9);
        assertEquals(0.9, cost.idleStackCores(), 1e-9);
    }

    @Test
    void aComponentThatUsedLessThanItsIdleRateShowsANegativeCostNotZero() {
        // noise on a shared machine is shown as measured, so a reader sees it
        CpuPerEvent cost = CpuPerEvent.of(at(0, 10, 20), at(10, 12, 20), at(10, 12, 20), at(20, 13, 20), 10_000);
        assertEquals(-100.0, cost.microsByComponent().get("gateway"), 1e-9);
    }

    @Test
    void aProcessesFigureAddsUpItsComponents() {
        CpuPerEvent cost = CpuPerEvent.of(new CpuSample(0, PARTS), new CpuSample(SECOND, PARTS), new CpuSample(SECOND, PARTS),
                new CpuSample(2 * SECOND, PARTS_A_SECOND_LATER), 1_000);
        assertEquals(400.0, cost.microsOf("gateway"), 1e-9);
        assertEquals(500.0, cost.microsOf("broker"), 1e-9);
    }
}
