package io.sluice.processor.topology;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

import io.sluice.processor.rows.Fact;

/**
 * Lets an event through only the first time its (project, event id) is seen within the horizon
 * of its first receipt, so a client's retry is counted once wherever its event time lands (a
 * retry sent after the event's time left the horizon comes re-timed to its receive time). A
 * window store keeps the ids under their receive time: whole segments older than the retention
 * are dropped as receive time moves on, with no scan.
 *
 * <p>Exact because every copy of an event lands in the same partition: the gateway chooses the
 * partition from a hash of project and event id.
 */
final class FirstSighting<F extends Fact> implements FixedKeyProcessor<String, F, F> {
    private final String storeName;
    private WindowStore<String, Long> seen;
    private FixedKeyProcessorContext<String, F> context;

    FirstSighting(String storeName) {
        this.storeName = storeName;
    }

    static StoreBuilder<WindowStore<String, Long>> store(String name, Duration horizon, Duration lateMargin) {
        // Measured in receive time, which the gateways' clocks set: the margin covers their skew.
        Duration retention = horizon.plus(lateMargin);
        // Before the margin, the retention was the horizon plus 2 minutes.
        return Stores.windowStoreBuilder(
                WindowStores.plain(name, retention, Duration.ofMillis(1), horizon.plusMinutes(2)),
                Serdes.String(), Serdes.Long());
    }

    @Override
    public void init(FixedKeyProcessorContext<String, F> context) {
        this.context = context;
        this.seen = context.getStateStore(storeName);
    }

    @Override
    public void process(FixedKeyRecord<String, F> record) {
        F fact = record.value();
        String id = fact.project() + '/' + fact.eventId();
        try (WindowStoreIterator<Long> earlier = seen.fetch(id, 0L, Long.MAX_VALUE)) {
            if (earlier.hasNext()) {
                return; // a retry of an event already counted
            }
        }
        seen.put(id, fact.receivedAt(), fact.receivedAt());
        context.forward(record);
    }
}
