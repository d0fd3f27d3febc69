package io.sluice.processor.topology;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Adds the ids a task's first-sighting store holds to a fresh {@link SeenIdsFilter} (after a
 * restore, or to replace one that gave up: {@link FirstSightingFilter}), a slice at a time between
 * records: read in one go, a large store would hold the stream thread past the exactly-once
 * transaction timeout (10 s) and get its tasks fenced. The store is read a span (one segment) at a
 * time and by key within it; a slice resumes at the last key it read.
 */
final class StoreScan {
    /** Ids read per slice: tens of milliseconds. */
    static final int SLICE_IDS = 20_000;

    private final WindowStore<String, Long> store;
    private final SeenIdsFilter filter;
    private final long spanMillis;
    private final long lastSpan;
    private long span;
    /** Where the span's next slice starts; null from its first key. Read again: adding an id twice changes nothing. */
    private String resumeKey;
    private long ids;

    private StoreScan(WindowStore<String, Long> store, SeenIdsFilter filter, long spanMillis, long firstSpan, long lastSpan) {
        this.store = store;
        this.filter = filter;
        this.spanMillis = spanMillis;
        this.span = firstSpan;
        this.lastSpan = lastSpan;
    }

    /**
     * A scan from the store's oldest id to its newest (no more spans than the retention holds),
     * or null when the store is empty.
     */
    static StoreScan of(WindowStore<String, Long> store, SeenIdsFilter filter, long spanMillis, long retentionMillis) {
        Long oldest = firstTime(store.all());
        Long newest = firstTime(store.backwardAll());
        if (oldest == null || newest == null) {
            return null;
        }
        long lastSpan = Math.floorDiv(newest, spanMillis);
        long firstSpan = Math.max(Math.floorDiv(oldest, spanMillis), lastSpan - retentionMillis / spanMillis - 2);
        return new StoreScan(store, filter, spanMillis, firstSpan, lastSpan);
    }

    /** Reads up to {@link #SLICE_IDS} ids into the filter; true once every span is read (or the filter gave up). */
    boolean readSlice() {
        int budget = SLICE_IDS;
        while (span <= lastSpan && budget > 0 && !filter.gaveUp()) {
            long from = span * spanMillis;
            boolean spanRead;
            try (KeyValueIterator<Windowed<String>, Long> slice = store.fetch(resumeKey, null, from, from + spanMillis - 1)) {
                while (budget > 0 && slice.hasNext()) {
                    KeyValue<Windowed<String>, Long> entry = slice.next();
                    filter.add(entry.key.key(), entry.key.window().start());
                    resumeKey = entry.key.key();
                    budget--;
                    ids++;
                }
                spanRead = !slice.hasNext();
            }
            if (spanRead) {
                span++;
                resumeKey = null;
            }
        }
        return span > lastSpan || filter.gaveUp();
    }

    long idsRead() {
        return ids;
    }

    private static Long firstTime(KeyValueIterator<Windowed<String>, Long> ids) {
        try (ids) {
            return ids.hasNext() ? ids.next().key.window().start() : null;
        }
    }
}
