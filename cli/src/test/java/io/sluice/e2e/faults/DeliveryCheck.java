package io.sluice.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;

/**
 * The delivery report of a fault test, event id by event id, read back from ClickHouse: whether
 * each event is in the history and how often it was counted (each event is its own environment,
 * so its own traffic row). Shared by FaultsIT and HighAvailabilityIT.
 */
final class DeliveryCheck {
    private DeliveryCheck() {
    }

    /**
     * Waits until every acknowledged event is counted once and in the history (or the time is up),
     * then reports and prints. Both: the sink writes each table in its own inserts, so the counts
     * may be complete while history rows are still on their way (a run reported them lost).
     */
    static Delivery.Report report(String fault, Engines engines, String db, String token, Delivery delivery) {
        Map<String, String> params = Map.of("project", token);
        Supplier<Map<String, Long>> counted = () -> counts(ClickHouseQuery.run(engines, "SELECT environment, sum(requests) FROM "
                + db + ".traffic_1m FINAL WHERE project = {project:String} GROUP BY environment", params));
        Supplier<Set<String>> stored = () -> lines(ClickHouseQuery.run(engines,
                "SELECT event_id FROM " + db + ".transactions FINAL WHERE project = {project:String}", params));
        Map<String, Long> once = new TreeMap<>();
        delivery.acknowledged.forEach(id -> once.put(id, 1L));
        // Wait, then look: the report says which events are missing or counted twice.
        Await.waitThenLook(Duration.ofSeconds(120), once, () -> {
            Map<String, Long> counts = counted.get();
            counts.keySet().retainAll(delivery.acknowledged);
            counts.keySet().retainAll(stored.get());
            return new TreeMap<>(counts);
        });
        Map<String, Long> counts = counted.get();
        Set<String> history = stored.get();
        long found = delivery.acknowledged.stream().filter(history::contains).count();
        long lost = delivery.acknowledged.stream().filter(id -> !history.contains(id) || counts.getOrDefault(id, 0L) == 0).count();
        long duplicated = counts.values().stream().filter(count -> count > 1).count();
        long unansweredStored = delivery.unanswered.stream().filter(history::contains).count();
        Delivery.Report report = new Delivery.Report(fault, delivery.sent.get(), delivery.acknowledged.size(), found, lost, duplicated,
                delivery.notSent.size(), delivery.unanswered.size(), unansweredStored, delivery.refused.toString());
        System.out.println(report);
        assertEquals(history, counts.keySet(), "every stored event is counted, every counted event is stored");
        return report;
    }

    private static Map<String, Long> counts(String rows) {
        Map<String, Long> counts = new TreeMap<>();
        for (String row : lines(rows)) {
            String[] columns = row.split("\t");
            counts.put(columns[0], Long.parseLong(columns[1]));
        }
        return counts;
    }

    private static Set<String> lines(String text) {
        return text.isEmpty() ? new TreeSet<>() : new TreeSet<>(Arrays.asList(text.split("\n")));
    }
}
