package io.sluice.sink;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.sluice.metrics.Histogram;

/**
 * What the sink did: rows and batches per table, insert latency and failures, rows refused by
 * ClickHouse, how far behind it is, and whether it is stalled (no progress for longer than the
 * stall timeout while rows wait).
 */
public final class SinkMetrics {
    private final Map<String, LongAdder> rows = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> deadLetters = new ConcurrentHashMap<>();
    private final Histogram batchRows = new Histogram(Histogram.SIZE_BUCKETS);
    private final Histogram insertDuration = new Histogram(Histogram.LATENCY_BUCKETS);
    private final AtomicLong lag = new AtomicLong();
    private final Duration stallTimeout;
    /** When the sink last committed, or last had nothing waiting. */
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile String lastError = "";

    public SinkMetrics(Duration stallTimeout) {
        this.stallTimeout = stallTimeout;
    }

    void inserted(String table, int rowCount, long startNanos) {
        rows.computeIfAbsent(table, t -> new LongAdder()).add(rowCount);
        batchRows.record(rowCount);
        insertDuration.recordNanos(System.nanoTime() - startNanos);
    }

    void failed(String table, Exception error) {
        failures.computeIfAbsent(table, t -> new LongAdder()).increment();
        lastError = "inserting into " + table + ": " + error;
    }

    void deadLettered(String table, int rowCount) {
        deadLetters.computeIfAbsent(table, t -> new LongAdder()).add(rowCount);
    }

    void lag(long records) {
        lag.set(records);
    }

    /** The sink committed, or has nothing to do: it is not behind. */
    void progressed() {
        lastProgressNanos = System.nanoTime();
        lastError = "";
    }

    public Duration sinceProgress() {
        return Duration.ofNanos(System.nanoTime() - lastProgressNanos);
    }

    /** Why the sink counts as stalled, or empty while it keeps up. */
    public Optional<String> stalled() {
        Duration since = sinceProgress();
        if (since.compareTo(stallTimeout) <= 0) {
            return Optional.empty();
        }
        return Optional.of("sink stalled for " + since.toSeconds() + " s" + (lastError.isEmpty() ? "" : ": " + lastError));
    }

    public void writeTo(StringBuilder out) {
        counter(out, "sluice_sink_rows_inserted_total", "Rows inserted into ClickHouse, by table.", rows);
        counter(out, "sluice_sink_insert_failures_total", "Failed ClickHouse inserts (retried), by table.", failures);
        counter(out, "sluice_sink_dead_letters_total", "Rows ClickHouse refused, sent to the dead-letter topic, by table.", deadLetters);
        batchRows.writeTo(out, "sluice_sink_batch_rows", "Rows per ClickHouse insert.");
        insertDuration.writeTo(out, "sluice_sink_insert_duration_seconds", "Time of one ClickHouse insert.");
        out.append("# HELP sluice_sink_lag_records Records in the output topics not yet written to ClickHouse (max over partitions).\n")
                .append("# TYPE sluice_sink_lag_records gauge\nsluice_sink_lag_records ").append(lag.get()).append('\n');
        out.append("# HELP sluice_sink_last_progress_age_seconds Seconds since the sink last committed while rows waited.\n")
                .append("# TYPE sluice_sink_last_progress_age_seconds gauge\nsluice_sink_last_progress_age_seconds ")
                .append(sinceProgress().toMillis() / 1000.0).append('\n');
        out.append("# HELP sluice_sink_stalled 1 while the sink made no progress for longer than SLUICE_SINK_STALL_TIMEOUT.\n")
                .append("# TYPE sluice_sink_stalled gauge\nsluice_sink_stalled ").append(stalled().isPresent() ? 1 : 0).append('\n');
    }

    private static void counter(StringBuilder out, String name, String help, Map<String, LongAdder> byTable) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        new TreeMap<>(byTable).forEach((table, count) ->
                out.append(name).append("{table=\"").append(table).append("\"} ").append(count.sum()).append('\n'));
    }
}
