package io.sluice.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.sink.lifecycle.RowPolicy;
import io.sluice.sink.lifecycle.RowPolicyFollower;

/**
 * Copies the processor's output topics into ClickHouse tables. Rows are batched (by count, bytes
 * and age), inserted as JSONEachRow, and only then are the Kafka offsets committed. The tables are
 * idempotent (ReplacingMergeTree), so a batch inserted twice after a crash changes nothing.
 *
 * <p>Rows ClickHouse refuses for their content go to the dead-letter topic (durably, before the
 * commit) and the rest is stored: one bad row never stops the sink. Whose fault a refusal is, the
 * row's or the table's, is told only by comparing rows of one table (see {@link RowInserter}): a
 * row refused alone waits in its partition, uncommitted, and is inserted again with the next rows
 * of its table (or alone again after each batch interval, in case the table was repaired). The
 * other rows go on meanwhile, but the stall watchdog counts no progress until the row is decided,
 * so past the stall timeout readiness fails and says why. While ClickHouse is
 * unavailable the sink pauses its partitions and retries with backoff, still polling so it stays
 * in the group. Pending rows are kept per partition: when a partition moves to another instance
 * meanwhile, its rows are dropped uncommitted (the new owner reads them again from the last
 * commit) and only the rows of partitions still owned are retried.
 */
public final class ClickHouseSink implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    private static final Duration INSERT_TIMEOUT = Duration.ofSeconds(60);
    /** How often the lag asks the brokers for the partitions' ends (paused partitions fetch nothing that would tell). */
    private static final Duration LAG_REFRESH = Duration.ofSeconds(1);
    /**
     * Longest the sink thread may wait on Kafka for one whole lag measurement (a shorter one timed
     * out on a busy machine, and the gauge kept a stale value).
     */
    private static final Duration LAG_QUERY_BUDGET = Duration.ofSeconds(1);

    private final RowInserter inserter;
    private final Client client;
    /** The database of the tables, where the deletions and retention tables are too. */
    private final String database;
    /** Follows the deletions and retentions from {@link #run()} on; null before. */
    private volatile RowPolicyFollower policy;
    private final DeadLetters deadLetters;
    private final SinkMetrics metrics;
    private final Map<String, String> tableByTopic;
    /** The tables in the order a flush inserts them (the caller's order of {@code tableByTopic}). */
    private final List<String> insertOrder;
    private final SinkLimits limits;
    private final KafkaConsumer<byte[], byte[]> consumer;
    /** The consumer's own meters (kafka_consumer_*), removed when it closes. */
    private final KafkaClientMetrics consumerMetrics;
    /** Read and not yet committed, per partition (a partition feeds exactly one table). */
    private final Map<TopicPartition, PartitionRows> pending = new LinkedHashMap<>();
    private int pendingRows;
    private long pendingBytes;
    private long oldestPendingNanos;
    /** 0 while ClickHouse works; otherwise the current backoff, and the partitions are paused. */
    private long backoffMillis;
    private long retryAtNanos;
    private volatile boolean closing;
    private long lagMeasuredNanos = System.nanoTime() - LAG_REFRESH.toNanos();
    /** Per table, the source of the row last refused alone and waiting: logged once, not at every retry. */
    private final Map<String, String> refusedAlone = new HashMap<>();

    /**
     * Rows of one partition not yet committed; the rows are cleared once inserted (or dead-lettered),
     * the offset stays until committed. A row refused alone stays, and so its partition is not committed.
     */
    private static final class PartitionRows {
        final String table;
        final List<RowInserter.Row> rows = new ArrayList<>();
        long bytes;
        /** The first offset read and not committed: where the next owner would start again. */
        final long firstOffset;
        long nextOffset;

        PartitionRows(String table, long firstOffset) {
            this.table = table;
            this.firstOffset = firstOffset;
        }
    }

    /**
     * @param tableByTopic    which topic fills which table (table names qualified with the database), in the
     *                        order a batch is inserted
     * @param deadLetterTopic where rows ClickHouse refuses go
     * @param instanceId      stable name of this instance for static group membership, or "" for none
     * @param prometheus      where the sink's meters and its consumer's go
     */
    public ClickHouseSink(Client client, KafkaSettings kafka, String groupId, String instanceId,
                          Map<String, String> tableByTopic, String deadLetterTopic, SinkLimits limits,
                          PrometheusMetrics prometheus) {
        this.inserter = new RowInserter(client, INSERT_TIMEOUT);
        this.client = client;
        this.tableByTopic = Map.copyOf(tableByTopic);
        this.insertOrder = List.copyOf(new LinkedHashSet<>(tableByTopic.values()));
        this.database = SinkTables.databaseOf(insertOrder.get(0));
        this.limits = limits;
        this.metrics = new SinkMetrics(limits.stallTimeout(), prometheus.registry());
        this.metrics.follows(() -> policy);
        Properties props = KafkaClients.consumerProperties(kafka, groupId);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        // Only what exactly-once transactions committed; aborted attempts never reach ClickHouse.
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(Math.max(500, limits.batchRows())));
        if (!instanceId.isEmpty()) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.consumerMetrics = prometheus.bindKafka(consumer);
        this.deadLetters = new DeadLetters(kafka, deadLetterTopic, groupId + "-dead-letters");
    }

    @Override
    public void run() {
        policy = RowPolicyFollower.start(client, database);
        try {
            consumer.subscribe(tableByTopic.keySet(), new Rebalance());
            while (!closing) {
                // Records end the wait at once: it only decides when the sink wakes with nothing read.
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(untilNextDue())) {
                    add(record);
                    if (!backingOff() && batchFull()) {
                        attemptFlush(); // the row and byte bounds hold within one poll's records too
                    }
                }
                measureLag();
                if (backingOff()) {
                    if (System.nanoTime() >= retryAtNanos) {
                        attemptFlush();
                    }
                } else if (batchFull() || (pendingRows > 0 && System.nanoTime() - oldestPendingNanos >= limits.batchInterval().toNanos())) {
                    attemptFlush();
                } else if (pendingRows == 0 && !inputWaiting()) {
                    metrics.progressed(); // nothing to do is not a stall
                }
            }
        } catch (WakeupException e) {
            if (!closing) {
                throw e;
            }
        } finally {
            try {
                if (!backingOff()) {
                    finalFlush(); // what was read before closing, once; otherwise it is read again next time
                }
            } finally {
                // Leave the group even as a static member (SLUICE_PROCESSOR_INSTANCE_ID): a static member's
                // plain close stays in the group, and its partitions would wait out the session timeout.
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(10))
                        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                consumerMetrics.close();
                deadLetters.close();
                policy.close();
            }
        }
    }

    private void add(ConsumerRecord<byte[], byte[]> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        PartitionRows rows = pending.computeIfAbsent(partition, p -> new PartitionRows(tableByTopic.get(p.topic()), record.offset()));
        rows.nextOffset = record.offset() + 1;
        if (record.value() == null) {
            return;
        }
        if (pendingRows == 0) {
            oldestPendingNanos = System.nanoTime();
        }
        rows.rows.add(new RowInserter.Row(record.key(), record.value(),
                record.topic() + "/" + record.partition() + "@" + record.offset()));
        rows.bytes += record.value().length + 1;
        pendingRows++;
        pendingBytes += record.value().length + 1;
    }

    /**
     * The flush on the way out. The close's wakeup may still be pending when the loop ends between
     * Kafka calls; it then interrupts the commit once, and the commit is tried again.
     */
    private void finalFlush() {
        try {
            flush();
        } catch (WakeupException pendingFromClose) {
            flush();
        }
    }

    /**
     * How long the poll may wait for records: until the next thing due without them, the pending batch's
     * insert, the retry after a failure, or the lag's next measurement, whichever comes first.
     */
    private Duration untilNextDue() {
        long now = System.nanoTime();
        long wait = lagMeasuredNanos + LAG_REFRESH.toNanos() - now;
        if (backingOff()) {
            wait = Math.min(wait, retryAtNanos - now);
        } else if (pendingRows > 0) {
            wait = Math.min(wait, oldestPendingNanos + limits.batchInterval().toNanos() - now);
        }
        // Rounded up: the consumer waits whole milliseconds, and a wait cut short would wake before it is due.
        return Duration.ofMillis((Math.max(0, wait) + 999_999) / 1_000_000);
    }

    private boolean batchFull() {
        return pendingRows >= limits.batchRows() || pendingBytes >= limits.batchBytes();
    }

    private boolean backingOff() {
        return backoffMillis > 0;
    }

    /** One flush; on failure the partitions are paused and the next attempt waits a growing backoff. */
    private void attemptFlush() {
        if (pending.isEmpty() || flush()) {
            if (backingOff()) {
                backoffMillis = 0;
                consumer.resume(consumer.paused()); // paused() holds only partitions this consumer still owns
            }
            return;
        }
        backoffMillis = backingOff() ? Math.min(backoffMillis * 2, MAX_BACKOFF.toMillis()) : FIRST_BACKOFF.toMillis();
        retryAtNanos = System.nanoTime() + Duration.ofMillis(backoffMillis).toNanos();
        consumer.pause(consumer.assignment()); // keep the group membership, read nothing new
    }

    /**
     * Inserts the pending rows table by table (refused rows to the dead letters), then commits
     * the offsets of the partitions they came from. Returns false, leaving uncommitted what was
     * not inserted, when ClickHouse or Kafka failed.
     */
    private boolean flush() {
        String step = "commit";
        try {
            Map<String, List<PartitionRows>> byTable = new LinkedHashMap<>();
            insertOrder.forEach(table -> byTable.put(table, new ArrayList<>()));
            pending.values().forEach(rows -> byTable.get(rows.table).add(rows));
            for (Map.Entry<String, List<PartitionRows>> table : byTable.entrySet()) {
                // Taken again for each table: one insert may take up to INSERT_TIMEOUT, and a deletion
                // read meanwhile must keep its rows out of the next table's.
                RowPolicy rowPolicy = policy.current();
                if (rowPolicy == null) {
                    step = database + ".deletions";
                    throw new IllegalStateException("the deletions and retentions were not read in the last "
                            + RowPolicyFollower.MAX_AGE.toSeconds() + " s (or not yet): nothing is inserted until they are");
                }
                step = table.getKey();
                insert(table.getKey(), table.getValue(), rowPolicy);
            }
            step = "commit";
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            pending.forEach((partition, rows) -> {
                if (rows.rows.isEmpty()) { // not a partition whose row was refused alone: that one waits
                    offsets.put(partition, new OffsetAndMetadata(rows.nextOffset));
                }
            });
            if (!offsets.isEmpty()) {
                consumer.commitSync(offsets);
            }
            pending.keySet().removeAll(offsets.keySet());
            if (pending.isEmpty()) {
                pendingRows = 0;
                pendingBytes = 0;
                metrics.progressed();
            } else {
                oldestPendingNanos = System.nanoTime(); // the waiting row is tried again after a batch interval
            }
            return true;
        } catch (WakeupException | InterruptException e) {
            throw e;
        } catch (Exception e) {
            metrics.failed(step, e);
            LOG.warn("ClickHouse sink: {} failed; {} rows wait and are retried: {}",
                    step.equals("commit") ? "committing offsets"
                            : step.equals(database + ".deletions") ? "reading " + step : "inserting into " + step, pendingRows, e.toString());
            return false;
        }
    }

    /**
     * Inserts one table's rows as the policy has them (those of deleted projects and users, and those
     * older than their project keeps, dropped); once ClickHouse has them (or the dead letters the
     * refused ones), they leave the batch.
     */
    private void insert(String table, List<PartitionRows> partitions, RowPolicy rowPolicy) throws Exception {
        List<RowInserter.Row> rows = new ArrayList<>();
        int dropped = 0;
        long now = System.currentTimeMillis();
        for (PartitionRows partition : partitions) {
            for (RowInserter.Row row : partition.rows) {
                RowInserter.Row stored = row.storedBy(rowPolicy, now);
                if (stored == null) {
                    dropped++;
                } else {
                    rows.add(stored);
                }
            }
        }
        if (dropped > 0) {
            metrics.droppedByPolicy(table, dropped);
        }
        if (rows.isEmpty()) {
            written(partitions);
            return;
        }
        long start = System.nanoTime();
        List<RowInserter.Refused> refused = inserter.insert(table, rows);
        if (rows.size() == 1 && refused.size() == 1) {
            waitForCompany(table, refused.get(0));
            return;
        }
        refusedAlone.remove(table);
        if (!refused.isEmpty()) {
            deadLetters.send(refused); // durable before the commit that skips these rows
            metrics.deadLettered(table, refused.size());
            LOG.warn("ClickHouse refused {} of {} rows for {}; they are in the dead-letter topic. First: {} ({})",
                    refused.size(), rows.size(), table, refused.get(0).reason(), refused.get(0).row().source());
        }
        metrics.inserted(table, rows.size() - refused.size(), start);
        written(partitions);
    }

    /** These partitions' rows are stored, dead-lettered or dropped: they leave the batch. */
    private void written(List<PartitionRows> partitions) {
        for (PartitionRows partition : partitions) {
            pendingRows -= partition.rows.size();
            pendingBytes -= partition.bytes;
            partition.rows.clear();
            partition.bytes = 0;
        }
    }

    /**
     * The only row of this table's batch was refused: that is no proof the row is at fault, since a
     * table that refuses every row (a column changed under the sink) refuses a lone row too. The row
     * stays in its partition's pending rows, so that partition is not committed and the row counts in
     * the lag; the next flush inserts it with the rows of its table read meanwhile, and RowInserter's
     * rule decides: stored, dead-lettered because other rows went in, or the table's fault. A restart
     * or a rebalance reads it again from the last commit.
     */
    private void waitForCompany(String table, RowInserter.Refused refused) {
        RefusedAloneException waiting = new RefusedAloneException(table, refused.row().source(), refused.reason());
        metrics.failed(table, waiting);
        if (!refused.row().source().equals(refusedAlone.put(table, refused.row().source()))) {
            LOG.warn("{}", waiting.getMessage());
        }
    }

    /** Forgets what was read from these partitions, uncommitted: their next owner reads it again. */
    private void drop(Collection<TopicPartition> partitions, String why) {
        int dropped = 0;
        for (TopicPartition partition : partitions) {
            PartitionRows rows = pending.remove(partition);
            if (rows != null) {
                dropped += rows.rows.size();
                pendingRows -= rows.rows.size();
                pendingBytes -= rows.bytes;
            }
        }
        if (dropped > 0) {
            LOG.info("{}: {} uninserted rows left uncommitted for the partitions' next owner", why, dropped);
        }
    }

    /** Whether the output topics hold records this consumer has not read yet. */
    private boolean inputWaiting() {
        for (TopicPartition partition : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(partition);
            if (lag.isPresent() && lag.getAsLong() > 0) {
                return true;
            }
        }
        return false;
    }

    public SinkMetrics metrics() {
        return metrics;
    }

    /**
     * Records not yet written to ClickHouse, summed over the partitions this instance is assigned:
     * for each, from its end (read_committed: the last stable offset) back to the first record not
     * committed, which is the group's committed offset (or the start, without one). That is how
     * sluice_processor_input_lag_records counts the raw topics: both are sums, so the instances'
     * values add up to the whole backlog, and several partitions behind show as more than one. Rows
     * read and held, in a batch or while ClickHouse is away, count: they are after the committed
     * offset, where the consumer's own records-lag-max would not see them (and it stops being
     * measured at all while the partitions are paused). A round that cannot measure every partition
     * (Kafka unreachable) records nothing: the gauge keeps its last value, and
     * sluice_sink_lag_age_seconds says how old that is.
     */
    private void measureLag() {
        if (System.nanoTime() - lagMeasuredNanos < LAG_REFRESH.toNanos()) {
            return;
        }
        lagMeasuredNanos = System.nanoTime();
        if (consumer.assignment().isEmpty()) {
            metrics.lag(0);
            return;
        }
        // One budget for the whole measurement, not one per partition: it runs on the sink's own
        // thread, and partitions without a leader must not hold the inserts up for long.
        long deadline = lagMeasuredNanos + LAG_QUERY_BUDGET.toNanos();
        Map<TopicPartition, Long> ends;
        try {
            ends = consumer.endOffsets(consumer.assignment(), LAG_QUERY_BUDGET);
        } catch (WakeupException | InterruptException e) {
            throw e;
        } catch (KafkaException e) {
            return; // Kafka unreachable: the last value stays and its age grows; the next round asks again
        }
        long waiting = 0;
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            PartitionRows rows = pending.get(end.getKey());
            long written; // the first offset not committed: without rows held, where the consumer reads next
            try {
                written = rows != null ? rows.firstOffset
                        : consumer.position(end.getKey(), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (WakeupException | InterruptException e) {
                throw e;
            } catch (IllegalStateException e) {
                continue; // no longer assigned: not this instance's to write
            } catch (KafkaException e) {
                return; // not known in time: a sum without this partition would be too low, so no measurement
            }
            waiting += Math.max(0, end.getValue() - written);
        }
        metrics.lag(waiting);
    }

    @Override
    public void close() {
        closing = true;
        consumer.wakeup();
    }

    /**
     * Before partitions move to another instance, write what was read from them (once) if
     * ClickHouse works; otherwise leave it uncommitted. Never commits rows not inserted.
     */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!backingOff() && !closing && partitions.stream().anyMatch(pending::containsKey) && !flush()) {
                LOG.warn("could not write the rows of revoked partitions {}; their next owner reads them again", partitions);
            }
            drop(partitions, "partitions revoked");
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            drop(partitions, "partitions lost");
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // The committed offsets say where to continue; while ClickHouse is away, read nothing new.
            if (backingOff()) {
                consumer.pause(partitions);
            }
        }
    }
}
