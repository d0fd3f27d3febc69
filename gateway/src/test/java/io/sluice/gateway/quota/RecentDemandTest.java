package io.sluice.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RecentDemandTest {
    private final RecentDemand demand = new RecentDemand(Duration.ofMillis(250), Duration.ofSeconds(1));

    @Test
    void eachIntervalsCountIsAddedToTheEarlierOnesDecayed() {
        assertEquals(Map.of("p", 100), demand.next(Map.of("p", 100L)));
        // 100 × e^(-0.25) + 10 = 87.9
        assertEquals(Map.of("p", 88), demand.next(Map.of("p", 10L)));
    }

    @Test
    void aQuotaStaysReportedThroughAQuietSecond() {
        demand.next(Map.of("p", 100L));
        for (int i = 0; i < 3; i++) {
            demand.next(Map.of());
        }
        // 100 × e^(-1)
        assertEquals(Map.of("p", 37), demand.next(Map.of()));
    }

    @Test
    void aQuotaIsDroppedOnceItsDemandDecaysBelowOneEvent() {
        demand.next(Map.of("p", 2L));
        demand.next(Map.of());
        // 2 × e^(-0.5) = 1.2, then 2 × e^(-0.75) = 0.94
        assertEquals(Map.of("p", 1), demand.next(Map.of()));
        assertEquals(Map.of(), demand.next(Map.of()));
    }

    @Test
    void atMostMaxQuotasAreKeptTheMostAsked() {
        Map<String, Long> counted = new HashMap<>();
        for (int i = 0; i < UsageReport.MAX_QUOTAS; i++) {
            counted.put("q" + i, 3L);
        }
        counted.put("least", 2L);
        Map<String, Integer> report = demand.next(counted);
        assertEquals(UsageReport.MAX_QUOTAS, report.size());
        assertEquals(null, report.get("least"));
    }
}
