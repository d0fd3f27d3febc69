package io.sluice.processor.topology;

import java.util.HashMap;
import java.util.Map;

/**
 * The counting stage's state for a key and minute: each source partition's counts, and what was
 * counted there before this format (by a former version, one repartitioned event at a time). The
 * total is their sum. Immutable.
 */
record SourceTotals<C>(C former, Map<Integer, C> bySource) {
    SourceTotals {
        bySource = Map.copyOf(bySource);
    }

    static <C> SourceTotals<C> none(Tally<C> tally) {
        return new SourceTotals<>(tally.zero(), Map.of());
    }

    SourceTotals<C> with(CountUpdate<C> update, Tally<C> tally) {
        if (update.sourcePartition() == CountUpdate.FORMER_EVENT) {
            return new SourceTotals<>(tally.plus().apply(former, update.counts()), bySource);
        }
        Map<Integer, C> updated = new HashMap<>(bySource);
        updated.put(update.sourcePartition(), update.counts());
        return new SourceTotals<>(former, updated);
    }

    C total(Tally<C> tally) {
        C total = former;
        for (C counts : bySource.values()) {
            total = tally.plus().apply(total, counts);
        }
        return total;
    }
}
