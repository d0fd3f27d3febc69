package io.sluice.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class AskedCountsTest {
    private final AskedCounts counts = new AskedCounts();

    @Test
    void theDrainReturnsTheCountsSinceTheLastDrain() {
        counts.asked("p");
        counts.asked("p");
        counts.asked("q");
        assertEquals(Map.of("p", 2L, "q", 1L), counts.drain());
        counts.asked("p");
        assertEquals(Map.of("p", 1L), counts.drain());
    }

    @Test
    void countsRacingTheDrainAreNotLost() throws InterruptedException {
        int threads = 4;
        int each = 200_000;
        List<Thread> askers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread asker = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    counts.asked("p" + (i % 4));
                }
            });
            askers.add(asker);
            asker.start();
        }
        long drained = 0;
        while (askers.stream().anyMatch(Thread::isAlive)) {
            drained += counts.drain().values().stream().mapToLong(Long::longValue).sum();
        }
        for (Thread asker : askers) {
            asker.join();
        }
        drained += counts.drain().values().stream().mapToLong(Long::longValue).sum();
        assertEquals((long) threads * each, drained);
    }
}
