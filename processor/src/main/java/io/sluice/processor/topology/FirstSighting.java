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
 * partition from a hash of project and event id. The store is read only for the ids its
 * {@link FirstSightingFilter} may hold: the others were never put.
 */
final class FirstSighting<F extends Fact> implements FixedKeyProcessor<String, F, F> {
    private final String storeName;
    private final Duration horizon;
    private final Duration lateMargin;
    private final FilterMemory filterMemory;
    private WindowStore<String, Long> seen;
    private FirstSightingFilter filter;
    private FixedKeyProcessorContext<String, F> context;

    FirstSighting(String storeName, Duration horizon, Duration lateMargin, FilterMemory filterMemory) {
        this.storeName = storeName;
        this.horizon = horizon;
        this.lateMargin = lateMargin;
        this.filterMemory = filterMemory;
    }

    static StoreBuilder<WindowStore<String, Long>> store(String name, Duration horizon, Duration lateMargin) {
        return Stores.windowStoreBuilder(
                WindowStores.plain(name, retention(horizon, lateMargin), Duration.ofMillis(1), segmentBasis(horizon)),
                Serdes.String(), Serdes.Long());
    }

    /** Measured in receive time, which the gateways' clocks set: the margin covers their skew. */
    static Duration retention(Duration horizon, Duration lateMargin) {
        return horizon.plus(lateMargin);
    }

    /**
     * What the store's segments are cut from: the horizon plus 2 minutes, without the late margin, so a
     * change of margin keeps the segments a deployed store has (see {@link WindowStores}).
     */
    static Duration segmentBasis(Duration horizon) {
        return horizon.plusMinutes(2);
    }

    @Override
    public void init(FixedKeyProcessorContext<String, F> context) {
        this.context = context;
        this.seen = context.getStateStore(storeName);
        // Called once the store is restored: it holds every id this task has put.
        filter = FirstSightingFilter.start(context, seen, storeName, WindowStores.segmentInterval(segmentBasis(horizon)),
                retention(horizon, lateMargin).toMillis(), filterMemory);
    }

    @Override
    public void process(FixedKeyRecord<String, F> record) {
        F fact = record.value();
        String id = fact.project() + '/' + fact.eventId();
        long idHash = SeenIdsFilter.hashOf(id);
        if (filter.mightContain(idHash)) {
            try (WindowStoreIterator<Long> earlier = seen.fetch(id, 0L, Long.MAX_VALUE)) {
                if (earlier.hasNext()) {
                    return; // a retry of an event already counted
                }
            }
        }
        filter.add(idHash, fact.receivedAt()); // before the store: never an id in the store and not in the filter
        seen.put(id, fact.receivedAt(), fact.receivedAt());
        context.forward(record);
    }

    @Override
    public void close() {
        if (filter != null) {
            filter.close();
            filter = null;
        }
    }
}
