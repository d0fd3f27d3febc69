package io.sluice.sink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;

/**
 * Copies the processor's output topics into ClickHouse tables. Rows are batched (by count and
 * by age), inserted as JSONEachRow, and only then are the Kafka offsets committed. The tables are
 * idempotent (ReplacingMergeTree), so a batch inserted twice after a crash changes nothing.
 * While ClickHouse is down the sink retries with backoff and reads no further; nothing is lost.
 */
public final class ClickHouseSink implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final Client client;
    private final SinkMetrics metrics = new SinkMetrics();
    private final Map<String, String> tableByTopic;
    private final int maxRows;
    private final Duration maxAge;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, ByteArrayOutputStream> pendingByTable = new LinkedHashMap<>();
    private final Map<String, Integer> rowsByTable = new HashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> pendingOffsets = new HashMap<>();
    private int pendingRows;
    private long oldestPendingNanos;
    private volatile boolean closing;

    /**
     * @param tableByTopic which topic fills which table (table names qualified with the database)
     */
    /**
     * @param instanceId stable name of this instance for static group membership, or "" for none
     */
    public ClickHouseSink(Client client, String bootstrapServers, String groupId, String instanceId,
                          Map<String, String> tableByTopic, int maxRows, Duration maxAge) {
        this.client = client;
        this.tableByTopic = Map.copyOf(tableByTopic);
        this.maxRows = maxRows;
        this.maxAge = maxAge;
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, groupId);
        // Only what exactly-once transactions committed; aborted attempts never reach ClickHouse.
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(Math.max(500, maxRows)));
        if (!instanceId.isEmpty()) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(tableByTopic.keySet(), new FlushBeforeRevoke());
            while (!closing) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    add(record);
                }
                metrics.lag(maxLag());
                if (pendingRows >= maxRows || (pendingRows > 0 && System.nanoTime() - oldestPendingNanos >= maxAge.toNanos())) {
                    flush(true);
                }
            }
        } catch (WakeupException e) {
            if (!closing) {
                throw e;
            }
        } finally {
            try {
                flush(false); // what was read before closing, once; otherwise it is read again next time
            } catch (RuntimeException e) {
                LOG.warn("could not write the last batch while closing; it will be read again: {}", e.toString());
            }
            consumer.close(Duration.ofSeconds(10));
        }
    }

    private void add(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return;
        }
        if (pendingRows == 0) {
            oldestPendingNanos = System.nanoTime();
        }
        ByteArrayOutputStream rows = pendingByTable.computeIfAbsent(tableByTopic.get(record.topic()),
                table -> new ByteArrayOutputStream(64 * 1024));
        rows.writeBytes(record.value());
        rows.write('\n');
        rowsByTable.merge(tableByTopic.get(record.topic()), 1, Integer::sum);
        pendingRows++;
        pendingOffsets.put(new TopicPartition(record.topic(), record.partition()),
                new OffsetAndMetadata(record.offset() + 1));
    }

    /**
     * Inserts every pending table, then commits the offsets. With {@code retryUntilDone} a
     * failing insert is retried with backoff (pausing consumption) until it succeeds or the sink
     * closes; without, a failure leaves the offsets uncommitted so the rows are read again.
     */
    private void flush(boolean retryUntilDone) {
        if (pendingRows == 0) {
            return;
        }
        long backoffMillis = 100;
        Collection<TopicPartition> paused = List.of();
        for (Map.Entry<String, ByteArrayOutputStream> table : pendingByTable.entrySet()) {
            while (true) {
                long start = System.nanoTime();
                try {
                    insert(table.getKey(), table.getValue().toByteArray());
                    metrics.inserted(table.getKey(), rowsByTable.getOrDefault(table.getKey(), 0), start);
                    break;
                } catch (Exception e) {
                    metrics.failed(table.getKey());
                    if (!retryUntilDone || closing) {
                        LOG.warn("ClickHouse insert into {} failed; {} rows will be read again from Kafka: {}",
                                table.getKey(), pendingRows, e.toString());
                        clearPending();
                        return;
                    }
                    LOG.warn("ClickHouse insert into {} failed, retrying in {} ms: {}", table.getKey(), backoffMillis, e.toString());
                    if (paused.isEmpty()) {
                        paused = consumer.assignment();
                        consumer.pause(paused); // keep the group membership, read nothing new
                    }
                    sleepPolling(backoffMillis);
                    backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF.toMillis());
                }
            }
        }
        consumer.commitSync(pendingOffsets);
        LOG.debug("inserted {} rows into {}", pendingRows, pendingByTable.keySet());
        clearPending();
        if (!paused.isEmpty()) {
            consumer.resume(paused);
        }
    }

    private void insert(String table, byte[] jsonEachRow) throws Exception {
        client.insert(table, new ByteArrayInputStream(jsonEachRow), ClickHouseFormat.JSONEachRow)
                .get(60, TimeUnit.SECONDS).close();
    }

    private void sleepPolling(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!closing && System.nanoTime() < deadline) {
            consumer.poll(POLL); // paused: returns nothing, but keeps this consumer in the group
        }
    }

    private void clearPending() {
        pendingByTable.clear();
        rowsByTable.clear();
        pendingOffsets.clear();
        pendingRows = 0;
    }

    public SinkMetrics metrics() {
        return metrics;
    }

    /** The consumer's own measure of how far behind it is (records-lag-max), 0 before it knows. */
    private long maxLag() {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("records-lag-max") && e.getKey().tags().size() == 1)
                .mapToLong(e -> {
                    Object value = e.getValue().metricValue();
                    return value instanceof Double d && !d.isNaN() ? d.longValue() : 0L;
                })
                .max().orElse(0L);
    }

    @Override
    public void close() {
        closing = true;
        consumer.wakeup();
    }

    /** Before partitions move to another instance, write what was read from them (once). */
    private final class FlushBeforeRevoke implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            flush(false);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // nothing to do: the committed offsets say where to continue
        }
    }
}
