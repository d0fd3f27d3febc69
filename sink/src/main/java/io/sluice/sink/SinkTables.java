package io.sluice.sink;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.sluice.config.Aggregate;
import io.sluice.config.Topics;

/**
 * Which output topic fills which ClickHouse table: the one map the sink writes by and replay
 * rebuilds by. History tables hold one row per event (time: {@code timestamp}, in milliseconds);
 * aggregate tables hold the latest absolute count of each key and minute or hour (time:
 * {@code minute} or {@code hour}, in seconds).
 */
public record SinkTables(Table transactions, Table errors, List<Table> aggregates) {
    /** History rows' time column, in epoch milliseconds. */
    public static final String HISTORY_TIME = "timestamp";

    /**
     * A topic and the table (qualified with its database) it fills, and the rows' time column: {@link #HISTORY_TIME}
     * for history rows, else the aggregate's minute or hour.
     */
    public record Table(String topic, String table, String timeColumn) {
        /** Rows that replace their earlier copies (latest per key), timed in seconds. */
        public boolean aggregate() {
            return !HISTORY_TIME.equals(timeColumn);
        }
    }

    public SinkTables {
        aggregates = List.copyOf(aggregates);
    }

    public static SinkTables of(Topics topics, String database) {
        return new SinkTables(new Table(topics.history(), database + ".transactions", HISTORY_TIME),
                new Table(topics.errorHistory(), database + ".errors", HISTORY_TIME),
                Aggregate.ALL.stream().map(aggregate -> new Table(topics.of(aggregate), database + "." + aggregate.table(),
                        aggregate.window().timeColumn())).toList());
    }

    /** Every table: the history tables, then the aggregates. */
    public List<Table> all() {
        return Stream.concat(Stream.of(transactions, errors), aggregates.stream()).toList();
    }

    /** The database of a table name qualified with it ({@code sluice.transactions}: {@code sluice}). */
    public static String databaseOf(String qualifiedTable) {
        int dot = qualifiedTable.indexOf('.');
        if (dot <= 0) {
            throw new IllegalArgumentException("not qualified with its database: " + qualifiedTable);
        }
        return qualifiedTable.substring(0, dot);
    }

    /**
     * Table by topic, in the order the sink inserts a batch: the aggregates first (a few rows), so
     * what dashboards count is not held behind a batch of thousands of history rows.
     */
    public Map<String, String> tableByTopic() {
        Map<String, String> tables = new LinkedHashMap<>();
        Stream.concat(aggregates.stream(), Stream.of(transactions, errors)).forEach(t -> tables.put(t.topic(), t.table()));
        return tables;
    }
}
