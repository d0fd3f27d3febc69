package io.sluice.sink;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.metrics.Buckets;
import io.sluice.metrics.LastMeasurement;
import io.sluice.sink.lifecycle.RowPolicy;
import io.sluice.sink.lifecycle.RowPolicyFollower;

/**
 * What the sink did: rows and batches per table, insert latency and failures, rows refused by
 * ClickHouse, how far behind it is, and whether it is stalled (no progress for longer than the
 * stall timeout while rows wait). Its meters live in the registry it is given (the processor's).
 */
public final class SinkMetrics {
    private final MeterRegistry registry;
    private final Map<String, Counter> rows = new ConcurrentHashMap<>();
    private final Map<String, Counter> failures = new ConcurrentHashMap<>();
    private final Map<String, Counter> deadLetters = new ConcurrentHashMap<>();
    private final Map<String, Counter> dropped = new ConcurrentHashMap<>();
    private final DistributionSummary batchRows;
    private final Timer insertDuration;
    private final LastMeasurement lag = new LastMeasurement();
    private final Duration stallTimeout;
    /** When the sink last committed, or last had nothing waiting. */
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile String lastError = "";

    public SinkMetrics(Duration stallTimeout, MeterRegistry registry) {
        this.stallTimeout = stallTimeout;
        this.registry = registry;
        this.batchRows = DistributionSummary.builder("sluice.sink.batch.rows").description("Rows per ClickHouse insert.")
                .serviceLevelObjectives(Buckets.SIZE).register(registry);
        this.insertDuration = Timer.builder("sluice.sink.insert.duration").description("Time of one ClickHouse insert.")
                .serviceLevelObjectives(Buckets.LATENCY).register(registry);
        Gauge.builder("sluice.sink.lag.records", lag, LastMeasurement::value)
                .description("Records in the output topics not yet written to ClickHouse: over the partitions this instance "
                        + "is assigned, the sum of end offset minus committed offset (rows read and held count), as last measured: "
                        + "see sluice_sink_lag_age_seconds.").register(registry);
        Gauge.builder("sluice.sink.lag.age.seconds", lag, LastMeasurement::ageSeconds)
                .description("Seconds since sluice_sink_lag_records was last measured (each second while Kafka answers); "
                        + "above a few seconds the lag is unknown, not current.").register(registry);
        Gauge.builder("sluice.sink.last.progress.age.seconds", this, metrics -> metrics.sinceProgress().toMillis() / 1000.0)
                .description("Seconds since the sink last committed while rows waited.").register(registry);
        Gauge.builder("sluice.sink.stalled", this, metrics -> metrics.stalled().isPresent() ? 1 : 0)
                .description("1 while the sink made no progress for longer than SLUICE_SINK_STALL_TIMEOUT.").register(registry);
    }

    void inserted(String table, int rowCount, long startNanos) {
        byTable(rows, "sluice.sink.rows.inserted", "Rows inserted into ClickHouse, by table.", table).increment(rowCount);
        batchRows.record(rowCount);
        insertDuration.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    void failed(String table, Exception error) {
        byTable(failures, "sluice.sink.insert.failures", "Failed ClickHouse inserts (retried), by table.", table).increment();
        lastError = "inserting into " + table + ": " + error;
    }

    void deadLettered(String table, int rowCount) {
        byTable(deadLetters, "sluice.sink.dead.letters", "Rows ClickHouse refused, sent to the dead-letter topic, by table.", table)
                .increment(rowCount);
    }

    /**
     * Gauges of what the sink last read of the deletions and retentions (NaN while none is in force):
     * each deletion and retention change counts here once every sink has it in force.
     */
    void follows(Supplier<RowPolicyFollower> follower) {
        Supplier<RowPolicy> policy = () -> follower.get() == null ? null : follower.get().current();
        Gauge.builder("sluice.sink.deleted.users", policy, p -> p.get() == null ? Double.NaN : p.get().deletions().userCount())
                .description("Users deleted (projects delete-user), as the sink last read them: none of their rows is stored.")
                .strongReference(true).register(registry); // the supplier has no other holder
        Gauge.builder("sluice.sink.deleted.projects", policy, p -> p.get() == null ? Double.NaN : p.get().deletions().projectCount())
                .description("Projects deleted (projects delete), as the sink last read them: none of their rows is stored.")
                .strongReference(true).register(registry);
        Gauge.builder("sluice.sink.projects.with.own.retention", policy, p -> p.get() == null ? Double.NaN
                        : p.get().projectsWithOwnRetention())
                .description("Projects that keep their rows fewer days than SLUICE_CLICKHOUSE_RETENTION_DAYS (projects set-retention).")
                .strongReference(true).register(registry);
        Gauge.builder("sluice.sink.row.policy.age.seconds", follower, f -> f.get() == null ? Double.NaN : f.get().ageSeconds())
                .description("Seconds since the sink last read the deletions and retentions (each second while ClickHouse answers); "
                        + "past " + RowPolicyFollower.MAX_AGE.toSeconds() + " it inserts nothing until it reads them again.")
                .strongReference(true).register(registry);
    }

    void droppedByPolicy(String table, int rowCount) {
        byTable(dropped, "sluice.sink.rows.dropped", "Rows not stored because their project or user was deleted, or they are "
                + "older than their project's retention, by table.", table).increment(rowCount);
    }

    private Counter byTable(Map<String, Counter> counters, String name, String description, String table) {
        return counters.computeIfAbsent(table, key -> Counter.builder(name).description(description).tag("table", table).register(registry));
    }

    /** The lag was measured; while it cannot be, the last value stays and its age grows. */
    void lag(long records) {
        lag.measured(records);
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
}
