package io.sluice.processor.topology;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

import org.apache.kafka.common.serialization.Serde;

import io.sluice.config.Aggregate;
import io.sluice.processor.rows.AggregateRow;
import io.sluice.processor.rows.WindowStart;

/**
 * One grouping of counted values, and the aggregates it feeds: values added up per key in the raw
 * partition's task ({@code partials}, {@link PartialCounts}), sent through one repartition topic
 * ({@code repartition}) and counted in each aggregate's window, each window's sums one row of the
 * grouping's row type, which holds its window ({@link WindowStart}). The partial sums are kept per
 * the shortest of those windows (a minute's sum falls into its hour).
 *
 * @param keys        the key's serde: its bytes are the repartition records' key and the window stores' key
 * @param partialSums what travels through the repartition topic
 * @param storedSums  what a window store keeps (one serde per store)
 * @param add         a value added to a sum
 * @param plus        two sums added up
 * @param row         the row of a key's sums in one window (absolute, with its version)
 * @param aggregates  each aggregate counted, whose name is its window store's
 */
record Grouping<K, V, S, R extends AggregateRow>(String partials, String repartition, Serde<K> keys, Serde<S> partialSums,
                                                 Supplier<Serde<S>> storedSums, S zero, BiFunction<S, V, S> add,
                                                 BinaryOperator<S> plus, RowOf<K, S, R> row, Class<R> rowType,
                                                 List<Aggregate> aggregates) {
    Grouping {
        aggregates = List.copyOf(aggregates);
    }

    /** The row of a key's sums in the window that starts at {@code start}. */
    @FunctionalInterface
    interface RowOf<K, S, R> {
        R of(K key, WindowStart start, S sums, int generation);
    }

    Duration partialWindow() {
        return aggregates.stream().map(aggregate -> aggregate.window().size()).min(Comparator.naturalOrder()).orElseThrow();
    }
}
