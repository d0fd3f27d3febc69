package io.sluice.processor.topology;

import java.util.concurrent.atomic.LongAdder;

/**
 * Events too late for their minute (older than the horizon plus the late margin behind their
 * source partition's stream time): in the history, in no per-minute count. Counted when dropped, so
 * a task that aborts its transaction may count one again when it reprocesses it.
 */
public final class LateEvents {
    private final LongAdder dropped = new LongAdder();

    void dropped() {
        dropped.increment();
    }

    public long count() {
        return dropped.sum();
    }
}
