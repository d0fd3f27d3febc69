package io.sluice.processor.topology;

import java.time.Duration;

import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.WindowStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's {@link SeenIdsFilter}, kept filled from its first-sighting store: when the task starts
 * (the store just restored) and again after the filter gave up, once memory is free. A fill is a
 * fresh filter that answers "maybe" until a {@link StoreScan} has read every id the store held
 * when the fill started; every id put from then on is added to it before the store's put. So it
 * never answers "not seen" for an id the store can return.
 */
final class FirstSightingFilter {
    private static final Logger LOG = LoggerFactory.getLogger(FirstSightingFilter.class);
    /** How often a slice of the store is read into the filter: about half the stream thread's time while it fills. */
    static final Duration SLICE_INTERVAL = Duration.ofMillis(50);
    private static final long NOT_SET = Long.MIN_VALUE;

    private final ProcessingContext context;
    private final WindowStore<String, Long> store;
    private final String storeName;
    private final long spanMillis;
    private final long retentionMillis;
    private final FilterMemory memory;
    private SeenIdsFilter filter;
    private StoreScan scan;
    private Cancellable filling;
    private long fillingSince;
    /** The fill follows a give-up: logged as the filter coming back. */
    private boolean refill;
    /** The receive time from which a given-up filter is tried again; set by the first record after it gave up. */
    private long retryAt = NOT_SET;

    private FirstSightingFilter(ProcessingContext context, WindowStore<String, Long> store, String storeName, long spanMillis,
                                long retentionMillis, FilterMemory memory) {
        this.context = context;
        this.store = store;
        this.storeName = storeName;
        this.spanMillis = spanMillis;
        this.retentionMillis = retentionMillis;
        this.memory = memory;
    }

    /**
     * A filter that starts filling from {@code store}: call once the store is restored (Kafka
     * Streams calls a processor's {@code init} then), and {@link #close} with the task.
     *
     * @param spanMillis the store's segment interval
     * @param retentionMillis the store's retention
     */
    static FirstSightingFilter start(ProcessingContext context, WindowStore<String, Long> store, String storeName,
                                     long spanMillis, long retentionMillis, FilterMemory memory) {
        FirstSightingFilter filter = new FirstSightingFilter(context, store, storeName, spanMillis, retentionMillis, memory);
        filter.startFill();
        return filter;
    }

    /** False only for an id the store cannot return. */
    boolean mightContain(String id) {
        return mightContain(SeenIdsFilter.hashOf(id));
    }

    /** {@link #mightContain(String)} of the id of this hash ({@link SeenIdsFilter#hashOf}). */
    boolean mightContain(long idHash) {
        return filter.mightContain(idHash);
    }

    /** Adds an id about to be put in the store under {@code receivedAt}. */
    void add(String id, long receivedAt) {
        add(SeenIdsFilter.hashOf(id), receivedAt);
    }

    /** {@link #add(String, long)} of the id of this hash ({@link SeenIdsFilter#hashOf}). */
    void add(long idHash, long receivedAt) {
        if (filter.gaveUp()) {
            retryIfDue(receivedAt); // before the add: the id at hand goes into the new filter
        }
        boolean hadGivenUp = filter.gaveUp();
        filter.add(idHash, receivedAt);
        if (filter.gaveUp() && !hadGivenUp) {
            gaveUp();
        }
    }

    /** Gives the memory back and stops any fill (the task closes). */
    void close() {
        stopFilling();
        filter.close();
    }

    /**
     * A fresh filter, "maybe" to everything until the store's ids are all in. The one it replaces,
     * if any, gave up and gave its memory back then: nothing is left to give back.
     */
    private void startFill() {
        filter = new SeenIdsFilter(spanMillis, retentionMillis, memory);
        scan = StoreScan.of(store, filter, spanMillis, retentionMillis);
        fillingSince = System.nanoTime();
        if (scan == null) {
            filled();
            return;
        }
        filling = context.schedule(SLICE_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> readSlice());
    }

    /** One slice of the store into the filter; after the last, the filter answers. */
    private void readSlice() {
        if (!scan.readSlice()) {
            return;
        }
        if (filter.gaveUp()) {
            gaveUp();
        } else {
            filled();
        }
    }

    private void filled() {
        stopFilling();
        filter.complete();
        long ids = scan == null ? 0 : scan.idsRead();
        long millis = (System.nanoTime() - fillingSince) / 1_000_000;
        if (refill) {
            LOG.info("task {}: its first-sighting filter of {} is back, memory being free again ({} ids, {} bytes, filled "
                    + "in {} ms)", context.taskId(), storeName, ids, filter.bytes(), millis);
        } else if (ids > 0) {
            LOG.info("task {}: {} ids of {} in its first-sighting filter ({} bytes) after {} ms", context.taskId(),
                    ids, storeName, filter.bytes(), millis);
        }
        scan = null;
    }

    /** The filter gave its memory back and answers "maybe" from now on: a fill in progress has nothing left to do. */
    private void gaveUp() {
        stopFilling();
        scan = null;
        retryAt = NOT_SET;
        if (memory.limit() == 0) {
            return; // turned off
        }
        LOG.warn("task {}: the first-sighting filters' memory ({} bytes, SLUICE_PROCESSOR_DEDUP_FILTER_BYTES) is spent: every "
                + "record of this task reads {} until memory is free again (correct, slower; tried again a span of receive "
                + "time later)", context.taskId(), memory.limit(), storeName);
    }

    /**
     * Tried again once a span of receive time (the store's segment interval) has passed since the
     * first record that found the filter given up, and only if the memory has room for a first
     * block. Not sooner: a fill reads the whole store, and memory comes free as spans expire, in
     * this task and the others, which happens once a span. Whatever the outcome, at most one fill
     * per span, so a budget too small for this task costs one futile scan per span, not a
     * stream thread busy scanning.
     */
    private void retryIfDue(long receivedAt) {
        if (retryAt == NOT_SET) {
            retryAt = receivedAt + spanMillis;
        } else if (receivedAt >= retryAt && memory.hasRoomFor(SeenIdsFilter.bytesOf(SeenIdsFilter.SMALLEST_CAPACITY))) {
            refill = true;
            startFill();
        }
    }

    private void stopFilling() {
        if (filling != null) {
            filling.cancel();
            filling = null;
        }
    }
}
