package io.sluice.sink;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.sluice.metrics.Histogram;

/** What the sink did: rows and batches per table, insert latency and failures, how far behind it is. */
public final class SinkMetrics {
    private final Map<String, LongAdder> rows = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final Histogram batchRows = new Histogram(Histogram.SIZE_BUCKETS);
    private final Histogram insertDuration = new Histogram(Histogram.LATENCY_BUCKETS);
    private final AtomicLong lag = new AtomicLong();

    void inserted(String table, int rowCount, long startNanos) {
        rows.computeIfAbsent(table, t -> new LongAdder()).add(rowCount);
        batchRows.record(rowCount);
        insertDuration.recordNanos(System.nanoTime() - startNanos);
    }

    void failed(String table) {
        failures.computeIfAbsent(table, t -> new LongAdder()).increment();
    }

    void lag(long records) {
        lag.set(records);
    }

    public void writeTo(StringBuilder out) {
        counter(out, "sluice_sink_rows_inserted_total", "Rows inserted into ClickHouse, by table.", rows);
        counter(out, "sluice_sink_insert_failures_total", "Failed ClickHouse inserts (retried), by table.", failures);
        batchRows.writeTo(out, "sluice_sink_batch_rows", "Rows per ClickHouse insert.");
        insertDuration.writeTo(out, "sluice_sink_insert_duration_seconds", "Time of one ClickHouse insert.");
        out.append("# HELP sluice_sink_lag_records Records in the output topics not yet written to ClickHouse (max over partitions).\n")
                .append("# TYPE sluice_sink_lag_records gauge\nsluice_sink_lag_records ").append(lag.get()).append('\n');
    }

    private static void counter(StringBuilder out, String name, String help, Map<String, LongAdder> byTable) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        new TreeMap<>(byTable).forEach((table, count) ->
                out.append(name).append("{table=\"").append(table).append("\"} ").append(count.sum()).append('\n'));
    }
}
