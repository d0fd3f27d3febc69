package io.sluice.processor.topology;

import java.time.Duration;

import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.internals.RocksDbWindowBytesStoreSupplier;
import org.apache.kafka.streams.state.internals.RocksDbWindowBytesStoreSupplier.WindowStoreTypes;

/**
 * The processor's RocksDB window stores, with a segment interval that depends on the horizon only,
 * not on the late margin ({@link ProcessorTopology#DEFAULT_LATE_MARGIN}, configurable). Kafka
 * Streams derives the interval from the retention (half of it) and names segments by
 * {@code timestamp / interval}: with a new interval, an upgraded instance would not find its
 * segments, and would forget the counts of the open minutes and the ids of the events already
 * seen. So the interval comes from each store's segment basis (its retention without the margin),
 * and any margin, or a change of it, keeps the same segments; a longer retention only keeps more
 * of them. A change of horizon does change it: the processor then wipes
 * its local state and restores it from the changelogs ({@link io.sluice.processor.state.StateHorizon}).
 * The public {@code Stores} methods lack a way to set it, hence the supplier from Kafka Streams'
 * internals (what {@code Stores} builds).
 */
final class WindowStores {
    private WindowStores() {
    }

    /** The DSL's default store for a windowed aggregation (timestamped), kept {@code retention}. */
    static WindowBytesStoreSupplier timestamped(String name, Duration retention, Duration windowSize, Duration segmentBasis) {
        return new RocksDbWindowBytesStoreSupplier(name, retention.toMillis(), segmentInterval(segmentBasis),
                windowSize.toMillis(), false, WindowStoreTypes.TIMESTAMPED_WINDOW_STORE);
    }

    /** A plain window store ({@code Stores.persistentWindowStore}), kept {@code retention}. */
    static WindowBytesStoreSupplier plain(String name, Duration retention, Duration windowSize, Duration segmentBasis) {
        return new RocksDbWindowBytesStoreSupplier(name, retention.toMillis(), segmentInterval(segmentBasis),
                windowSize.toMillis(), false, WindowStoreTypes.DEFAULT_WINDOW_STORE);
    }

    /** As {@code Stores} computes it. */
    static long segmentInterval(Duration retention) {
        return Math.max(retention.toMillis() / 2, 60_000L);
    }

    /**
     * The most segments (each its own RocksDB instance) a store of these retentions holds: Kafka
     * Streams keeps those the retention spans and the one partly expired.
     */
    static long segmentsAtMost(Duration retention, Duration segmentBasis) {
        long interval = segmentInterval(segmentBasis);
        return (retention.toMillis() + interval - 1) / interval + 1;
    }
}
