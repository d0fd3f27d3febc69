package io.sluice.sink.replay;

import java.io.IOException;
import java.io.PrintStream;
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

import io.sluice.config.Topics;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.RowInserter;

/**
 * Rebuilds ClickHouse tables from the processor's retained output topics: the parsed history
 * rows and the latest absolute count of every minute. Rows are filtered by their own event time
 * and project and inserted into the idempotent tables, so rows already there stay single, a second
 * replay changes nothing, and live ingestion can go on meanwhile (an older count never beats a
 * newer one: ReplacingMergeTree keeps the highest version).
 */
public final class Replay {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BATCH_ROWS = 20_000;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);
    private static final int REFUSALS_PRINTED = 20;

    private final String bootstrapServers;
    private final Topics topics;
    private final Duration horizon;
    private final Client clickHouse;
    private final ClickHouseSettings clickHouseSettings;
    private final PrintStream out;
    private final RowInserter inserter;

    public Replay(String bootstrapServers, Topics topics, Duration horizon, Client clickHouse,
                  ClickHouseSettings clickHouseSettings, PrintStream out) {
        this.bootstrapServers = bootstrapServers;
        this.topics = topics;
        this.horizon = horizon;
        this.clickHouse = clickHouse;
        this.clickHouseSettings = clickHouseSettings;
        this.out = out;
        this.inserter = new RowInserter(clickHouse, Duration.ofSeconds(120));
    }

    /** One table's share of the work: where its rows come from and which field holds their time. */
    private record Source(String topic, String table, String timeField, boolean timeInMillis, boolean perMinute) {
    }

    /** Per table: rows re-sent, how many of them were already present, and how many ClickHouse refused. */
    public record TableSummary(String table, long recordsRead, long rowsResent, long rowsAlreadyPresent, long rowsRefused) {
    }

    public List<TableSummary> run(ReplayRequest request) {
        String db = clickHouseSettings.database();
        List<Source> sources = new ArrayList<>();
        if (request.what().contains(ReplayRequest.What.HISTORY)) {
            sources.add(new Source(topics.history(), db + ".transactions", "timestamp", true, false));
        }
        if (request.what().contains(ReplayRequest.What.ERRORS)) {
            sources.add(new Source(topics.errorHistory(), db + ".errors", "timestamp", true, false));
        }
        if (request.what().contains(ReplayRequest.What.AGGREGATES)) {
            sources.add(new Source(topics.traffic(), db + ".traffic_1m", "minute", false, true));
            sources.add(new Source(topics.errors1m(), db + ".errors_1m", "minute", false, true));
            sources.add(new Source(topics.outcomes(), db + ".outcomes_1m", "minute", false, true));
        }
        out.println((request.dryRun() ? "Dry run: counting" : "Replaying") + " event times " + request.from() + " … "
                + request.to() + (request.project() == null ? ", all projects" : ", project " + request.project()));
        List<TableSummary> summaries = new ArrayList<>();
        for (Source source : sources) {
            summaries.add(replay(source, request));
        }
        out.println();
        out.printf("%-28s %14s %14s %18s %10s%n", "table", "records read", "rows re-sent", "already present", "refused");
        for (TableSummary summary : summaries) {
            out.printf("%-28s %14d %14d %18s %10s%n", summary.table(), summary.recordsRead(), summary.rowsResent(),
                    request.dryRun() ? "-" : Long.toString(summary.rowsAlreadyPresent()),
                    request.dryRun() ? "-" : Long.toString(summary.rowsRefused()));
        }
        return summaries;
    }

    private TableSummary replay(Source source, ReplayRequest request) {
        long before = request.dryRun() ? 0 : rowsInRange(source, request);
        long read = 0;
        long resent = 0;
        long refused = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = consumer.partitionsFor(source.topic(), Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(source.topic(), p.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> start = startOffsets(consumer, partitions, source, request);
            warnAboutRetention(consumer, partitions, source, request);
            start.forEach(consumer::seek);
            long total = partitions.stream().mapToLong(p -> end.get(p) - start.get(p)).sum();

            // Per-minute topics hold every update of a row until compaction: keep the newest per key.
            Map<String, RowInserter.Row> newestPerKey = new java.util.LinkedHashMap<>();
            List<RowInserter.Row> batch = new ArrayList<>();
            long begun = System.nanoTime();
            long lastProgress = begun;
            while (!caughtUp(consumer, partitions, end)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue; // written after the replay began: live ingestion's business
                    }
                    read++;
                    if (record.value() == null || !wanted(record.value(), source, request)) {
                        continue;
                    }
                    if (source.perMinute()) {
                        newestPerKey.put(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8), new RowInserter.Row(
                                record.key(), record.value(), record.topic() + "/" + record.partition() + "@" + record.offset()));
                        continue;
                    }
                    resent++;
                    batch.add(new RowInserter.Row(record.key(), record.value(),
                            record.topic() + "/" + record.partition() + "@" + record.offset()));
                    if (batch.size() >= BATCH_ROWS) {
                        refused += insert(source.table(), batch, request.dryRun(), refused);
                    }
                }
                if (System.nanoTime() - lastProgress > PROGRESS_EVERY.toNanos()) {
                    lastProgress = System.nanoTime();
                    progress(source.table(), read, resent + newestPerKey.size(), total, begun);
                }
            }
            for (RowInserter.Row row : newestPerKey.values()) {
                resent++;
                batch.add(row);
                if (batch.size() >= BATCH_ROWS) {
                    refused += insert(source.table(), batch, request.dryRun(), refused);
                }
            }
            if (!batch.isEmpty()) {
                refused += insert(source.table(), batch, request.dryRun(), refused);
            }
            progress(source.table(), read, resent, total, begun);
            out.println();
        }
        long after = request.dryRun() ? 0 : rowsInRange(source, request);
        return new TableSummary(source.table(), read, resent, Math.max(0, resent - refused - (after - before)), refused);
    }

    /** History topics: from the first record of {@code from - horizon} (an event may arrive that late); per-minute topics: from the start. */
    private Map<TopicPartition, Long> startOffsets(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                                   Source source, ReplayRequest request) {
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(partitions);
        if (source.perMinute()) {
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
                                    Source source, ReplayRequest request) {
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
            out.println("! " + source.topic() + ": the range starts before the oldest retained record ("
                    + Instant.ofEpochMilli(oldest) + "); older events were deleted by Kafka's retention "
                    + "(SLUICE_TOPIC_RAW_RETENTION). Replaying what exists.");
        }
    }

    private boolean wanted(byte[] value, Source source, ReplayRequest request) {
        try {
            JsonNode row = JSON.readTree(value);
            if (request.project() != null && !request.project().equals(row.path("project").asText())) {
                return false;
            }
            long time = row.path(source.timeField()).asLong();
            long millis = source.timeInMillis() ? time : time * 1000;
            return millis >= request.from().toEpochMilli() && millis < request.to().toEpochMilli();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Inserts the batch through the sink's insert path and empties it. Rows ClickHouse refuses for
     * their content are reported and skipped (the live sink sent them to the dead-letter topic when
     * it met them); returns how many. ClickHouse unavailable stops the replay: run it again.
     */
    private int insert(String table, List<RowInserter.Row> batch, boolean dryRun, long refusedBefore) {
        List<RowInserter.Refused> refused = List.of();
        if (!dryRun) {
            try {
                refused = inserter.insert(table, batch);
            } catch (Exception e) {
                throw new IllegalStateException("inserting into " + table + " failed; nothing is lost, run the same "
                        + "replay again: " + e.getMessage(), e);
            }
        }
        batch.clear();
        long printed = refusedBefore;
        for (RowInserter.Refused row : refused) {
            if (printed++ < REFUSALS_PRINTED) {
                out.println();
                out.println("! " + table + ": ClickHouse refused " + row.row().source() + ", skipped: " + row.reason());
            }
        }
        return refused.size();
    }

    private long rowsInRange(Source source, ReplayRequest request) {
        String time = source.perMinute() ? "minute" : "timestamp";
        String sql = "SELECT count() AS row_count FROM " + source.table() + " FINAL WHERE " + time
                + " >= fromUnixTimestamp64Milli(" + request.from().toEpochMilli() + ") AND " + time
                + " < fromUnixTimestamp64Milli(" + request.to().toEpochMilli() + ")"
                + (request.project() == null ? "" : " AND project = {project:String}");
        Map<String, Object> parameters = request.project() == null ? Map.of() : Map.of("project", request.project());
        return clickHouse.queryAll(sql, parameters).get(0).getLong("row_count");
    }

    private void progress(String table, long read, long resent, long total, long begunNanos) {
        double seconds = Math.max(0.001, (System.nanoTime() - begunNanos) / 1e9);
        long rate = (long) (read / seconds);
        long left = Math.max(0, total - read);
        String eta = rate == 0 ? "?" : (left / Math.max(1, rate)) + " s";
        out.printf("\r%-28s read %d/%d records, %d rows, %d records/s, ETA %s   ", table, read, total, resent, rate, eta);
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                    Map<TopicPartition, Long> end) {
        return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-replay");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
