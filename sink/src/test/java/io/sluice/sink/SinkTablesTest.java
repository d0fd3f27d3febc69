package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;
import io.sluice.config.Topics;

class SinkTablesTest {
    @Test
    void eachOutputTopicFillsItsTable() {
        SinkTables tables = SinkTables.of(Topics.from(new Settings(Map.of())), "sluice");
        assertEquals(Map.of("sluice.history", "sluice.transactions", "sluice.error-history", "sluice.errors",
                "sluice.traffic-1m", "sluice.traffic_1m", "sluice.errors-1m", "sluice.errors_1m",
                "sluice.outcomes", "sluice.outcomes_1m"), tables.tableByTopic());
        assertEquals(new SinkTables.Table("sluice.history", "sluice.transactions", false), tables.transactions());
        assertEquals(3, tables.perMinute().stream().filter(SinkTables.Table::perMinute).count());
    }

    @Test
    void theCountsAreInsertedBeforeTheHistory() {
        SinkTables tables = SinkTables.of(Topics.from(new Settings(Map.of())), "sluice");
        assertEquals(List.of("sluice.traffic_1m", "sluice.errors_1m", "sluice.outcomes_1m", "sluice.transactions", "sluice.errors"),
                List.copyOf(tables.tableByTopic().values()));
    }
}
