package io.sluice.sink.replay;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import com.clickhouse.client.api.Client;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.KafkaStartupFailure;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.RowInserter;
import io.sluice.sink.SinkTables;
import io.sluice.sink.lifecycle.RowPolicy;
import io.sluice.sink.lifecycle.RowPolicyFollower;

/**
 * Rebuilds ClickHouse tables from the processor's retained output topics: the parsed history
 * rows and the latest absolute count of every minute. Rows are filtered by their own event time
 * and project and inserted into the idempotent tables, so rows already there stay single, a second
 * replay changes nothing, and live ingestion can go on meanwhile (an older count never beats a
 * newer one: ReplacingMergeTree keeps the highest version, and so does the replay, per key).
 */
public final class Replay {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BATCH_ROWS = 20_000;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);

    /** How long the replay waits for each answer from Kafka unless told otherwise. */
    private static final Duration DEFAULT_KAFKA_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaSettings kafka;
    private final Duration kafkaTimeout;
    private final Duration horizon;
    private final Client clickHouse;
    private final SinkTables tables;
    private final ReplayListener listener;
    private final RowInserter inserter;
    private final String database;

    public Replay(KafkaSettings kafka, Duration horizon, Client clickHouse, ClickHouseSettings clickHouseSettings,
                  ReplayListener listener) {
        this(kafka, DEFAULT_KAFKA_TIMEOUT, horizon, clickHouse, clickHouseSettings, listener);
    }

    /**
     * @param kafkaTimeout how long to wait for each answer from Kafka (the topic's partitions, its
     *                     offsets), so that Kafka unreachable fails after about that long
     */
    public Replay(KafkaSettings kafka, Duration kafkaTimeout, Duration horizon, Client clickHouse,
                  ClickHouseSettings clickHouseSettings, ReplayListener listener) {
        this.kafka = kafka;
        this.kafkaTimeout = kafkaTimeout;
        this.horizon = horizon;
        this.clickHouse = clickHouse;
        this.tables = SinkTables.of(kafka.topics(), clickHouseSettings.database());
        this.listener = listener;
        this.inserter = new RowInserter(clickHouse, Duration.ofSeconds(120));
        this.database = clickHouseSettings.database();
    }

    /** Per table: rows re-sent, how many of them were already present, and how many ClickHouse refused. */
    public record TableSummary(String table, long recordsRead, long rowsResent, long rowsAlreadyPresent, long rowsRefused) {
    }

    public List<TableSummary> run(ReplayRequest request) {
        List<SinkTables.Table> sources = new ArrayList<>();
        if (request.what().contains(ReplayRequest.What.HISTORY)) {
            sources.add(tables.transactions());
        }
        if (request.what().contains(ReplayRequest.What.ERRORS)) {
            sources.add(tables.errors());
        }
        if (request.what().contains(ReplayRequest.What.AGGREGATES)) {
            sources.addAll(tables.aggregates());
        }
        listener.started(request);
        // Followed as the sink follows it, and applied to each batch as it is inserted: a deletion recorded during
        // the replay keeps its rows out of every batch after the deletion's pause, and removes what went in before.
        List<TableSummary> summaries = new ArrayList<>();
        try (FollowedOnFirstBatch policy = new FollowedOnFirstBatch()) {
            for (SinkTables.Table source : sources) {
                summaries.add(replay(source, request, policy));
            }
        }
        listener.finished(request, summaries);
        return summaries;
    }

    private TableSummary replay(SinkTables.Table source, ReplayRequest request, FollowedOnFirstBatch policy) {
        long before = request.dryRun() ? 0 : rowsInRange(source, request);
        long read = 0;
        long resent = 0;
        long refused = 0;
        long dropped = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(source.topic(), kafkaTimeout).stream()
                    .map(p -> new TopicPartition(source.topic(), p.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> start = startOffsets(consumer, partitions, source, request);
            warnAboutRetention(consumer, partitions, source, request);
            start.forEach(consumer::seek);
            long total = partitions.stream().mapToLong(p -> end.get(p) - start.get(p)).sum();

            // Aggregate topics hold every update of a row until compaction: keep the highest version
            // per key, as ReplacingMergeTree(version) does, not the last in topic order. After a
            // recompute both generations' processors write the same keys, and the older one (still
            // serving live traffic) can write a lower version after the newer one.
            Map<String, Versioned> newestPerKey = new java.util.LinkedHashMap<>();
            List<RowInserter.Row> batch = new ArrayList<>();
            long begun = System.nanoTime();
            long lastProgress = begun;
            while (!caughtUp(consumer, partitions, end)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue; // written after the replay began: live ingestion's business
                    }
                    read++;
                    JsonNode row = record.value() == null ? null : wanted(record.value(), source, request);
                    if (row == null) {
                        continue;
                    }
                    if (source.aggregate()) {
                        Versioned candidate = new Versioned(row.path("version").asLong(), new RowInserter.Row(
                                record.key(), record.value(), record.topic() + "/" + record.partition() + "@" + record.offset()));
                        // Ties: the later wins, as ClickHouse keeps the last inserted of equal versions.
                        newestPerKey.merge(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8), candidate,
                                (kept, later) -> later.version() >= kept.version() ? later : kept);
                        continue;
                    }
                    resent++;
                    batch.add(new RowInserter.Row(record.key(), record.value(),
                            record.topic() + "/" + record.partition() + "@" + record.offset()));
                    if (batch.size() >= BATCH_ROWS) {
                        Sent sent = insert(source.table(), batch, request.dryRun(), policy);
                        refused += sent.refused();
                        dropped += sent.dropped();
                    }
                }
                if (System.nanoTime() - lastProgress > PROGRESS_EVERY.toNanos()) {
                    lastProgress = System.nanoTime();
                    listener.progress(source.table(), read, total, resent + newestPerKey.size(), elapsedSince(begun));
                }
            }
            for (Versioned highest : newestPerKey.values()) {
                resent++;
                batch.add(highest.row());
                if (batch.size() >= BATCH_ROWS) {
                    Sent sent = insert(source.table(), batch, request.dryRun(), policy);
                    refused += sent.refused();
                    dropped += sent.dropped();
                }
            }
            if (!batch.isEmpty()) {
                Sent sent = insert(source.table(), batch, request.dryRun(), policy);
                refused += sent.refused();
                dropped += sent.dropped();
            }
            resent -= dropped;
            // The offsets' span also counts the transactions' commit markers, which are no records: only
            // now is the true total known, and the last line says read n/n rather than stopping short.
            listener.progress(source.table(), read, read, resent, elapsedSince(begun));
            listener.tableDone(source.table());
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw KafkaStartupFailure.of("cannot read " + source.topic(), e, kafka, kafkaTimeout.toSeconds());
        }
        long after = request.dryRun() ? 0 : rowsInRange(source, request);
        return new TableSummary(source.table(), read, resent, Math.max(0, resent - refused - (after - before)), refused);
    }

    /** History topics: from the first record of {@code from - horizon} (an event may arrive that late); aggregate topics: from the start. */
    private Map<TopicPartition, Long> startOffsets(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                                   SinkTables.Table source, ReplayRequest request) {
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
        if (source.aggregate()) {
            return beginning;
        }
        long searchFrom = request.from().minus(horizon).minusSeconds(60).toEpochMilli();
        Map<TopicPartition, Long> query = new HashMap<>();
        partitions.forEach(p -> query.put(p, Math.max(0, searchFrom)));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> start = new HashMap<>();
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp at = found.get(partition);
            start.put(partition, at == null ? end.get(partition) : Math.max(at.offset(), beginning.get(partition)));
        }
        return start;
    }

    /** Kafka deletes old records: when the range starts before the oldest one kept, say so. */
    private void warnAboutRetention(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                    SinkTables.Table source, ReplayRequest request) {
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
        Long oldest = null;
        for (TopicPartition partition : partitions) {
            if (beginning.get(partition) > 0) {
                Map<TopicPartition, OffsetAndTimestamp> first = consumer.offsetsForTimes(Map.of(partition, 0L));
                OffsetAndTimestamp at = first.get(partition);
                if (at != null && (oldest == null || at.timestamp() < oldest)) {
                    oldest = at.timestamp();
                }
            }
        }
        if (oldest != null && Instant.ofEpochMilli(oldest).isAfter(request.from())) {
            listener.olderRecordsDeleted(source.topic(), Instant.ofEpochMilli(oldest));
        }
    }

    /** The row, read, when it is in the request's range and project; else null. */
    private static JsonNode wanted(byte[] value, SinkTables.Table source, ReplayRequest request) {
        try {
            JsonNode row = JSON.readTree(value);
            if (request.project() != null && !request.project().equals(row.path("project").asText())) {
                return null;
            }
            long time = row.path(source.timeColumn()).asLong();
            long millis = source.aggregate() ? time * 1000 : time;
            return millis >= request.from().toEpochMilli() && millis < request.to().toEpochMilli() ? row : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** An aggregate row and its {@code version} column (unsigned in ClickHouse; below 2^63 as Sluice writes it). */
    private record Versioned(long version, RowInserter.Row row) {
    }

    /** Of one batch: the rows the policy dropped, and those ClickHouse refused. */
    private record Sent(int dropped, int refused) {
    }

    /**
     * Inserts the batch through the sink's insert path, as the policy in force now has it (rows deleted, or
     * older than their project keeps, dropped: what the sink would not store either), and empties it. Rows
     * ClickHouse refuses for their content are reported and skipped (the live sink sent them to the
     * dead-letter topic when it met them). ClickHouse unavailable stops the replay: run it again.
     */
    private Sent insert(String table, List<RowInserter.Row> batch, boolean dryRun, FollowedOnFirstBatch policy) {
        RowPolicy inForce = policy.follower().awaitCurrent(kafkaTimeout);
        long now = System.currentTimeMillis();
        List<RowInserter.Row> rows = new ArrayList<>(batch.size());
        for (RowInserter.Row row : batch) {
            RowInserter.Row stored = row.storedBy(inForce, now);
            if (stored != null) {
                rows.add(stored);
            }
        }
        List<RowInserter.Refused> refused = List.of();
        if (!dryRun && !rows.isEmpty()) {
            try {
                refused = inserter.insert(table, rows);
            } catch (Exception e) {
                throw new IllegalStateException("inserting into " + table + " failed; nothing is lost, run the same "
                        + "replay again: " + e.getMessage(), e);
            }
        }
        int dropped = batch.size() - rows.size();
        batch.clear();
        refused.forEach(row -> listener.refused(table, row));
        return new Sent(dropped, refused.size());
    }

    /**
     * The deletions and retentions followed from the first batch read from Kafka on: a replay that cannot
     * reach Kafka fails on that alone, in one line, without asking ClickHouse first.
     */
    private final class FollowedOnFirstBatch implements AutoCloseable {
        private RowPolicyFollower follower;

        RowPolicyFollower follower() {
            if (follower == null) {
                follower = RowPolicyFollower.start(clickHouse, database);
            }
            return follower;
        }

        @Override
        public void close() {
            if (follower != null) {
                follower.close();
            }
        }
    }

    private long rowsInRange(SinkTables.Table source, ReplayRequest request) {
        String time = source.timeColumn();
        String sql = "SELECT count() AS row_count FROM " + source.table() + " FINAL WHERE " + time
                + " >= fromUnixTimestamp64Milli(" + request.from().toEpochMilli() + ") AND " + time
                + " < fromUnixTimestamp64Milli(" + request.to().toEpochMilli() + ")"
                + (request.project() == null ? "" : " AND project = {project:String}");
        Map<String, Object> parameters = request.project() == null ? Map.of() : Map.of("project", request.project());
        return clickHouse.queryAll(sql, parameters).get(0).getLong("row_count");
    }

    private static Duration elapsedSince(long begunNanos) {
        return Duration.ofNanos(System.nanoTime() - begunNanos);
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                    Map<TopicPartition, Long> end) {
        return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties props = KafkaClients.consumerProperties(kafka, "sluice-replay", kafkaTimeout);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
