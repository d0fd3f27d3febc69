package io.sluice.processor.topology;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * {@link SeenIdsFilter} may hold: the others were never put.
 */
final class FirstSighting<F extends Fact> implements FixedKeyProcessor<String, F, F> {
    private static final Logger LOG = LoggerFactory.getLogger(FirstSighting.class);
    /** How often a slice of the restored store is read into the filter: about half the stream thread's time while it fills. */
    private static final Duration SLICE_INTERVAL = Duration.ofMillis(50);

    private final String storeName;
    private final Duration horizon;
    private final Duration lateMargin;
    private final FilterMemory filterMemory;
    private WindowStore<String, Long> seen;
    private SeenIdsFilter filter;
    private StoreScan scan;
    private Cancellable filling;
    private long fillingSince;
    private FixedKeyProcessorContext<String, F> context;

    FirstSighting(String storeName, Duration horizon, Duration lateMargin, FilterMemory filterMemory) {
        this.storeName = storeName;
        this.horizon = horizon;
        this.lateMargin = lateMargin;
        this.filterMemory = filterMemory;
    }

    static StoreBuilder<WindowStore<String, Long>> store(String name, Duration horizon, Duration lateMargin) {
        return Stores.windowStoreBuilder(
                WindowStores.plain(name, retention(horizon, lateMargin), Duration.ofMillis(1), formerRetention(horizon)),
                Serdes.String(), Serdes.Long());
    }

    /** Measured in receive time, which the gateways' clocks set: the margin covers their skew. */
    static Duration retention(Duration horizon, Duration lateMargin) {
        return horizon.plus(lateMargin);
    }

    /** Before the margin, the retention was the horizon plus 2 minutes (it sets the segments). */
    static Duration formerRetention(Duration horizon) {
        return horizon.plusMinutes(2);
    }

    @Override
    public void init(FixedKeyProcessorContext<String, F> context) {
        this.context = context;
        this.seen = context.getStateStore(storeName);
        long spanMillis = WindowStores.segmentInterval(formerRetention(horizon));
        long retentionMillis = retention(horizon, lateMargin).toMillis();
        filter = new SeenIdsFilter(spanMillis, retentionMillis, filterMemory);
        // Called once the store is restored: it holds every id this task has put. Until they are
        // all in the filter, it answers "maybe" and the store decides.
        scan = StoreScan.of(seen, filter, spanMillis, retentionMillis);
        if (scan == null) {
            filter.complete();
            return;
        }
        fillingSince = System.nanoTime();
        filling = context.schedule(SLICE_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> readSlice());
    }

    /** One slice of the restored store into the filter; after the last, the filter answers. */
    private void readSlice() {
        if (!scan.readSlice()) {
            return;
        }
        filling.cancel();
        filter.complete();
        if (filter.gaveUp()) {
            warnGaveUp();
        } else {
            LOG.info("task {}: {} ids of {} in its first-sighting filter ({} bytes) after {} ms", context.taskId(),
                    scan.idsRead(), storeName, filter.bytes(), (System.nanoTime() - fillingSince) / 1_000_000);
        }
    }

    @Override
    public void process(FixedKeyRecord<String, F> record) {
        F fact = record.value();
        String id = fact.project() + '/' + fact.eventId();
        if (filter.mightContain(id)) {
            try (WindowStoreIterator<Long> earlier = seen.fetch(id, 0L, Long.MAX_VALUE)) {
                if (earlier.hasNext()) {
                    return; // a retry of an event already counted
                }
            }
        }
        boolean hadGivenUp = filter.gaveUp();
        filter.add(id, fact.receivedAt()); // before the store: never an id in the store and not in the filter
        if (filter.gaveUp() && !hadGivenUp) {
            warnGaveUp();
        }
        seen.put(id, fact.receivedAt(), fact.receivedAt());
        context.forward(record);
    }

    private void warnGaveUp() {
        if (filterMemory.limit() == 0) {
            return; // turned off
        }
        LOG.warn("task {}: the first-sighting filters' memory ({} bytes, SLUICE_PROCESSOR_DEDUP_FILTER_BYTES) is spent: every "
                + "record of this task reads {} until the task starts again (correct, slower)", context.taskId(),
                filterMemory.limit(), storeName);
    }

    @Override
    public void close() {
        if (filter != null) {
            filter.close();
        }
    }
}
