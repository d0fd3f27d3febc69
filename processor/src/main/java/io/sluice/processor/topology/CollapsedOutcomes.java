package io.sluice.processor.topology;

import java.time.Duration;
import java.util.Optional;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

import io.sluice.outcomes.OutcomeRow;
import io.sluice.processor.rows.KeyText;

/**
 * Counts the events a cardinality limit counted under {@code <other>} as outcomes
 * ({@code cardinality_limited:<name>}), per project and event-time minute, and hands on the
 * absolute count as an outcomes record after each one. Runs in the task that reads the raw
 * partition, where the limits decide, and counts in a window store restored with the task, so the
 * counts are exact under exactly-once: the row's "gateway" is this counter,
 * {@code processor:<raw topic>:<partition>}, and its version is its count, as the gateways' rows
 * are, so sending a row again, a replay or a recompute counts nothing twice.
 *
 * <p>Input: the project token, and which name was collapsed.
 */
final class CollapsedOutcomes implements Processor<String, LimitedName, byte[], byte[]> {
    private static final long MINUTE_MILLIS = Duration.ofMinutes(1).toMillis();

    private final String storeName;
    private WindowStore<String, Long> counts;
    private ProcessorContext<byte[], byte[]> context;

    CollapsedOutcomes(String storeName) {
        this.storeName = storeName;
    }

    /**
     * Minutes kept as long as an event may still land in them, as the minute aggregates' stores. In
     * memory, restored from its changelog at each start (collapses are rare, so it is small): a
     * persistent store that was never written has no checkpoint offset, and under exactly-once
     * Kafka Streams then takes the task's whole local state for corrupted and wipes it at every
     * restart, the deduplication stores with it (HorizonChangeIT).
     */
    static StoreBuilder<WindowStore<String, Long>> store(String name, Duration retention) {
        return Stores.windowStoreBuilder(Stores.inMemoryWindowStore(name, retention, Duration.ofMinutes(1), false),
                Serdes.String(), Serdes.Long());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.counts = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, LimitedName> record) {
        long minute = Math.floorDiv(record.timestamp(), MINUTE_MILLIS) * MINUTE_MILLIS;
        String project = record.key();
        LimitedName name = record.value();
        String key = KeyText.nul(project, name.name());
        Long counted = counts.fetch(key, minute);
        long count = (counted == null ? 0 : counted) + 1;
        counts.put(key, count, minute);
        OutcomeRow row = OutcomeRow.of(project, minute / 1000, name.outcome(), counter(), count);
        context.forward(new Record<>(row.key(), row.json(), record.timestamp()));
    }

    /** Which counter this is: the raw partition it reads, stable across restarts, rebalances and recomputes. */
    private String counter() {
        Optional<RecordMetadata> metadata = context.recordMetadata();
        return metadata.map(m -> "processor:" + m.topic() + ':' + m.partition()).orElse("processor");
    }
}
