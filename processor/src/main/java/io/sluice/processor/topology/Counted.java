package io.sluice.processor.topology;

import io.sluice.config.Aggregate;
import io.sluice.processor.rows.AggregateRow;

/**
 * An aggregate the processor counts: its declaration, and the row a key's sums in one window
 * become (absolute, with its version).
 */
record Counted<K, S, R extends AggregateRow>(Aggregate aggregate, RowOf<K, S, R> row, Class<R> rowType) {
    /** The row of a key's sums in the window starting at {@code windowStartMillis}. */
    @FunctionalInterface
    interface RowOf<K, S, R> {
        R of(K key, long windowStartMillis, S sums, int generation);
    }
}
