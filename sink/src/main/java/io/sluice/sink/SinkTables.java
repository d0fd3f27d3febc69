package io.sluice.sink;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.sluice.config.Topics;

/**
 * Which output topic fills which ClickHouse table: the one map the sink writes by and replay
 * rebuilds by. History tables hold one row per event (time: {@code timestamp}, in milliseconds);
 * per-minute tables hold the latest count of each key and minute (time: {@code minute}, in seconds).
 */
public record SinkTables(Table transactions, Table errors, List<Table> perMinute) {
    /** A topic and the table (qualified with its database) it fills. */
    public record Table(String topic, String table, boolean perMinute) {
    }

    public SinkTables {
        perMinute = List.copyOf(perMinute);
    }

    public static SinkTables of(Topics topics, String database) {
        return new SinkTables(new Table(topics.history(), database + ".transactions", false),
                new Table(topics.errorHistory(), database + ".errors", false),
                List.of(new Table(topics.traffic(), database + ".traffic_1m", true),
                        new Table(topics.errors1m(), database + ".errors_1m", true),
                        new Table(topics.outcomes(), database + ".outcomes_1m", true)));
    }

    /**
     * Table by topic, in the order the sink inserts a batch: the per-minute counts first (a few
     * rows), so what dashboards count is not held behind a batch of thousands of history rows.
     */
    public Map<String, String> tableByTopic() {
        Map<String, String> tables = new LinkedHashMap<>();
        Stream.concat(perMinute.stream(), Stream.of(transactions, errors)).forEach(t -> tables.put(t.topic(), t.table()));
        return tables;
    }
}
