package io.sluice.processor.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Counts events per key and event-time minute in the source partition where they arrive, and sends
 * each changed count on to the counting stage once per interval: one record per key, minute and
 * interval instead of one per event, and a huge project's counting spread over every source
 * partition instead of the one its key hashes to.
 *
 * <p>Exact under exactly-once: a count and the mark that it is not yet sent ({@code unsent}) change
 * in one transaction with the input offsets; the send and the removal of the mark in another. A
 * task that restarts between the two finds the mark and sends the count then. Counts are absolute,
 * so sending one twice changes nothing.
 *
 * <p>The send is scheduled only while something is unsent: a scheduled punctuation makes Streams
 * commit a transaction each time it runs, even with nothing to send.
 */
final class SourceCounts<F, K, C> implements Processor<String, F, K, CountUpdate<C>> {
    private static final long MINUTE = Duration.ofMinutes(1).toMillis();

    private final Counting<F, K, C> counting;
    private final long graceMillis;
    private final Duration sendInterval;
    private final LateEvents late;
    private ProcessorContext<K, CountUpdate<C>> context;
    private WindowStore<K, C> counts;
    private KeyValueStore<KeyMinute<K>, Long> unsent;
    private Cancellable scheduledSend;

    /**
     * @param grace        how long a minute stays open after it ends (the horizon plus the late margin)
     * @param sendInterval at least a millisecond (Streams schedules no shorter)
     */
    SourceCounts(Counting<F, K, C> counting, Duration grace, Duration sendInterval, LateEvents late) {
        this.counting = counting;
        this.graceMillis = grace.toMillis();
        this.sendInterval = sendInterval;
        this.late = late;
    }

    @Override
    public void init(ProcessorContext<K, CountUpdate<C>> context) {
        this.context = context;
        this.counts = context.getStateStore(counting.sourceStore());
        this.unsent = context.getStateStore(counting.unsentStore());
        scheduledSend = null; // init again after a task was revived: its punctuations are gone with close()
        if (unsent.approximateNumEntries() > 0) {
            scheduleSend(); // marks restored from the changelog: counts a former owner did not send
        }
    }

    @Override
    public void process(Record<String, F> record) {
        long minute = record.timestamp() - Math.floorMod(record.timestamp(), MINUTE);
        if (minute + MINUTE + graceMillis <= context.currentStreamTimeMs()) {
            late.dropped(); // its minute has closed, here and in the store's retention
            return;
        }
        K key = counting.key().apply(record.value());
        C before = counts.fetch(key, minute);
        Tally<C> tally = counting.tally();
        counts.put(key, tally.plus().apply(before == null ? tally.zero() : before, counting.oneEvent().apply(record.value())), minute);
        // Marked on every event: the store's cache (sorted by bytes) absorbs repeats, where a hash
        // set of keys would let a tenant's colliding environments cost quadratic time.
        unsent.put(new KeyMinute<>(key, minute), minute);
        if (scheduledSend == null) {
            scheduleSend();
        }
    }

    private void scheduleSend() {
        scheduledSend = context.schedule(sendInterval, PunctuationType.WALL_CLOCK_TIME, now -> sendUnsent());
    }

    private void sendUnsent() {
        List<KeyMinute<K>> toSend = new ArrayList<>();
        try (KeyValueIterator<KeyMinute<K>, Long> all = unsent.all()) {
            all.forEachRemaining((KeyValue<KeyMinute<K>, Long> entry) -> toSend.add(entry.key));
        }
        int partition = context.taskId().partition();
        for (KeyMinute<K> keyMinute : toSend) {
            C current = counts.fetch(keyMinute.key(), keyMinute.minute());
            if (current != null) { // else its minute has left the store's retention
                context.forward(new Record<>(keyMinute.key(), new CountUpdate<>(partition, current), keyMinute.minute()));
            }
            unsent.delete(keyMinute);
        }
        scheduledSend.cancel();
        scheduledSend = null;
    }

    @Override
    public void close() {
        if (scheduledSend != null) {
            scheduledSend.cancel();
            scheduledSend = null;
        }
    }
}
