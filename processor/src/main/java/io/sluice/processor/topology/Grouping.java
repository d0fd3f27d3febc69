package io.sluice.processor.topology;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

import org.apache.kafka.common.serialization.Serde;

/**
 * One grouping of counted values, and the aggregates it feeds: values added up per key in the raw
 * partition's task ({@code partials}, {@link PartialCounts}), sent through one repartition topic
 * ({@code repartition}) and counted in each aggregate's window. The partial sums are kept per the
 * shortest of those windows (a minute's sum falls into its hour).
 *
 * @param keys        the key's serde: its bytes are the repartition records' key and the window stores' key
 * @param partialSums what travels through the repartition topic
 * @param storedSums  what a window store keeps (one serde per store)
 * @param add         a value added to a sum
 * @param plus        two sums added up
 */
record Grouping<K, V, S>(String partials, String repartition, Serde<K> keys, Serde<S> partialSums,
                         Supplier<Serde<S>> storedSums, S zero, BiFunction<S, V, S> add, BinaryOperator<S> plus,
                         List<Counted<K, S, ?>> aggregates) {
    Grouping {
        aggregates = List.copyOf(aggregates);
    }

    Duration partialWindow() {
        return aggregates.stream().map(counted -> counted.aggregate().window().size()).min(Comparator.naturalOrder()).orElseThrow();
    }
}
