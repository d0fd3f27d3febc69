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
                "sluice.outcomes", "sluice.outcomes_1m", "sluice.requests-1m", "sluice.requests_1m",
                "sluice.requests-1h", "sluice.requests_1h", "sluice.errors-1h", "sluice.errors_1h", "sluice.traffic-1h", "sluice.traffic_1h",
                "sluice.sessions-1h", "sluice.sessions_1h"), tables.tableByTopic());
        assertEquals(new SinkTables.Table("sluice.history", "sluice.transactions", "timestamp"), tables.transactions());
        assertEquals(8, tables.aggregates().stream().filter(SinkTables.Table::aggregate).count());
    }

    @Test
    void hourlyTablesAreTimedByTheirHour() {
        SinkTables tables = SinkTables.of(Topics.from(new Settings(Map.of())), "sluice");
        assertEquals(List.of("minute", "minute", "minute", "minute", "hour", "hour", "hour", "hour"),
                tables.aggregates().stream().map(SinkTables.Table::timeColumn).toList());
    }

    @Test
    void theCountsAreInsertedBeforeTheHistory() {
        SinkTables tables = SinkTables.of(Topics.from(new Settings(Map.of())), "sluice");
        assertEquals(List.of("sluice.traffic_1m", "sluice.errors_1m", "sluice.outcomes_1m", "sluice.requests_1m",
                        "sluice.requests_1h", "sluice.errors_1h", "sluice.traffic_1h", "sluice.sessions_1h", "sluice.transactions", "sluice.errors"),
                List.copyOf(tables.tableByTopic().values()));
    }
}
