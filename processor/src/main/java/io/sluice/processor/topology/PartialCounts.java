package io.sluice.processor.topology;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Pre-aggregation in the task that reads the raw partition: events are added up per grouping key
 * and window (minute or hour) here, and only the sums go through the repartition topic, where one
 * task per key adds the partial sums of every raw partition into the window's absolute count. A
 * project's events are spread over every raw partition (the gateway's {@code PartitionChooser}),
 * so a project with most of the traffic is counted by as many tasks as there are partitions, and
 * the one task its key lands on after the repartition adds a few sums per raw partition and
 * {@link #FLUSH_INTERVAL}, not one record per event.
 *
 * <p>Exact under exactly-once: the pending sums live in a logged store, so an event's addition,
 * its input offset, and the sums sent on commit or abort together; a task restored after a crash
 * finds the sums of every event its committed offset covers, and sends them on with its next flush.
 * The sums are sent on (and deleted) {@link #FLUSH_INTERVAL} of wall-clock time after the first
 * of them, each as a record timestamped with its window's start, so it falls into the same window
 * downstream.
 *
 * @param <K> the grouping key
 * @param <V> what one event brings (a status, a duration)
 * @param <A> the sum of events (the same type the window store downstream keeps)
 */
final class PartialCounts<K, V, A> implements Processor<K, V, K, A> {
    /** How long sums wait before they are sent on: the default commit interval, so summing adds no staleness beyond a commit's. */
    static final Duration FLUSH_INTERVAL = Duration.ofMillis(100);

    private final String storeName;
    private final long windowMillis;
    private final A none;
    private final BiFunction<A, V, A> adder;
    private final Serde<K> keys;
    private final Serde<A> sums;
    private final PreAggregation.Tally tally;
    /**
     * The store's content as objects, by store key: each event updates it without reading or
     * deserializing the store. Keyed by the key's bytes, which are {@link Comparable}: a bucket of
     * colliding hashes (keys are the clients' strings) becomes a tree, never a list scanned per event.
     */
    private final Map<Bytes, Pending<K, A>> pending = new HashMap<>();
    private KeyValueStore<Bytes, byte[]> store;
    private ProcessorContext<K, A> context;
    private PreAggregation.TaskTally taskTally;
    /** The next flush, while something waits: an idle task schedules none, so it commits no empty transactions. */
    private Cancellable nextFlush;

    /** A key's sum in one window, by the window's start (epoch milliseconds). */
    private record Pending<K, A>(long windowStart, K key, A sum) {
    }

    PartialCounts(String storeName, Duration window, A none, BiFunction<A, V, A> adder, Serde<K> keys, Serde<A> sums,
                  PreAggregation.Tally tally) {
        this.storeName = storeName;
        this.windowMillis = window.toMillis();
        this.none = none;
        this.adder = adder;
        this.keys = keys;
        this.sums = sums;
        this.tally = tally;
    }

    /**
     * In memory, logged, and cached: the changelog gets each key's last sum once per commit, not a
     * record per event, and its deletion after the flush. Compacted, it holds one tombstone per key
     * and window; restored from the start at each task start (an in-memory store has no local
     * checkpoint), so its segments roll every minute for the cleaner to compact all but the last
     * minute, and tombstones go after an hour (a restore reads them well within it, so no deleted
     * sum comes back), a fraction of the window stores' changelogs, which keep every key and minute
     * for the horizon.
     */
    static StoreBuilder<KeyValueStore<Bytes, byte[]>> store(String name) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                .withCachingEnabled()
                .withLoggingEnabled(Map.of(TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Duration.ofMinutes(1).toMillis()),
                        TopicConfig.DELETE_RETENTION_MS_CONFIG, Long.toString(Duration.ofHours(1).toMillis())));
    }

    @Override
    public void init(ProcessorContext<K, A> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        this.taskTally = tally.of(context.taskId().toString());
        pending.clear();
        cancelFlush();
        // Called once the store is restored: the sums a crash left unsent are sent with the first flush.
        try (KeyValueIterator<Bytes, byte[]> stored = store.all()) {
            while (stored.hasNext()) {
                KeyValue<Bytes, byte[]> entry = stored.next();
                ByteBuffer bytes = ByteBuffer.wrap(entry.key.get());
                long windowStart = bytes.getLong();
                byte[] key = new byte[bytes.remaining()];
                bytes.get(key);
                pending.put(entry.key, new Pending<>(windowStart, keys.deserializer().deserialize(storeName, key),
                        sums.deserializer().deserialize(storeName, entry.value)));
            }
        }
        if (!pending.isEmpty()) {
            scheduleFlush();
        }
    }

    @Override
    public void process(Record<K, V> record) {
        long windowStart = Math.floorDiv(record.timestamp(), windowMillis) * windowMillis;
        Bytes storeKey;
        try {
            storeKey = storeKey(windowStart, record.key());
        } catch (SerializationException tooLarge) {
            // A key too large to store is too large to send: sent on alone now, so the production
            // handler dead-letters it with this input record as its source and reason, as it did
            // before sums were added up here (UnproducibleToDeadLetters), and the partition moves on.
            context.forward(new Record<>(record.key(), adder.apply(none, record.value()), windowStart));
            return;
        }
        Pending<K, A> before = pending.get(storeKey);
        A sum = adder.apply(before == null ? none : before.sum(), record.value());
        pending.put(storeKey, new Pending<>(windowStart, record.key(), sum));
        store.put(storeKey, sums.serializer().serialize(storeName, sum));
        taskTally.counted();
        if (nextFlush == null) {
            scheduleFlush();
        }
    }

    @Override
    public void close() {
        cancelFlush();
    }

    private void scheduleFlush() {
        nextFlush = context.schedule(FLUSH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> flush());
    }

    private void cancelFlush() {
        if (nextFlush != null) {
            nextFlush.cancel();
            nextFlush = null;
        }
    }

    private void flush() {
        for (Map.Entry<Bytes, Pending<K, A>> entry : pending.entrySet()) {
            Pending<K, A> sum = entry.getValue();
            context.forward(new Record<>(sum.key(), sum.sum(), sum.windowStart()));
            store.delete(entry.getKey());
        }
        taskTally.sent(pending.size());
        pending.clear();
        cancelFlush();
    }

    /** The window's start, then the key's bytes. */
    private Bytes storeKey(long windowStart, K key) {
        byte[] bytes = keys.serializer().serialize(storeName, key);
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES + bytes.length).putLong(windowStart).put(bytes).array());
    }
}
