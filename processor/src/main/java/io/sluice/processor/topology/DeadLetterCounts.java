package io.sluice.processor.topology;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many input records the processor sent to the dead letters, by reason: {@code unparseable}
 * (the parser rejected it) and {@code unproducible} (an output row could not be serialized or was
 * too large, see {@link UnproducibleToDeadLetters}). Counted when the dead letter is handed to
 * Streams, so a task that aborts its transaction may count a record again when it reprocesses it.
 */
public final class DeadLetterCounts {
    /** Key under which the Streams config passes this object on to {@link UnproducibleToDeadLetters}. */
    public static final String CONFIG = "sluice.dead.letter.counts";

    private final LongAdder unparseable = new LongAdder();
    private final LongAdder unproducible = new LongAdder();

    void unparseable() {
        unparseable.increment();
    }

    void unproducible() {
        unproducible.increment();
    }

    public long unparseableCount() {
        return unparseable.sum();
    }

    public long unproducibleCount() {
        return unproducible.sum();
    }
}
