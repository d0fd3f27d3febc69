package io.sluice.processor.topology;

import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;

import io.sluice.processor.rows.RoutedKey;

/**
 * How a grouping takes its values from a kind of fact, once the fact's names are limited
 * ({@link FactCounts}): the facts it counts (all, or those {@code only} keeps), the key and value
 * each becomes, and its route limit if its key has a route. The names are its processors' and
 * its route limit's store.
 *
 * @param onlyName null when every fact is counted
 * @param routes   null when the key has no route to limit
 * @param tally    which tasks added up values before the repartition ({@link PreAggregation})
 */
record Feed<F, K, V>(Grouping<K, V, ?, ?> grouping, String onlyName, Predicate<F> only, String keyName,
                     Function<F, KeyValue<K, V>> keyed, Routes<K, V> routes,
                     Function<PreAggregation, PreAggregation.Tally> tally) {
    /** Every fact, keyed so, no route limit, tallied nowhere. */
    static <F, K, V> Feed<F, K, V> of(Grouping<K, V, ?, ?> grouping, String keyName, Function<F, KeyValue<K, V>> keyed) {
        return new Feed<>(grouping, null, null, keyName, keyed, null, preAggregation -> PreAggregation.Tally.NONE);
    }

    /** Only the facts {@code only} keeps. */
    Feed<F, K, V> only(String name, Predicate<F> facts) {
        return new Feed<>(grouping, name, facts, keyName, keyed, routes, tally);
    }

    /** Its keys' routes bounded per project and day ({@link RouteLimit}). */
    Feed<F, K, V> limitedBy(Routes<K, V> limit) {
        return new Feed<>(grouping, onlyName, only, keyName, keyed, limit, tally);
    }

    Feed<F, K, V> tallied(Function<PreAggregation, PreAggregation.Tally> by) {
        return new Feed<>(grouping, onlyName, only, keyName, keyed, routes, by);
    }

    /**
     * A route limit: its store, its processors' names (the limit, the collapses it reports, the values it
     * hands on), and the limit itself for a key with a route.
     */
    record Routes<K, V>(String store, String limitName, String collapsedName, String routedName,
                        Function<CardinalityLimits, Processor<K, V, K, Limited<V>>> limit, Function<K, String> project) {
        static <K extends RoutedKey<K>, V> Routes<K, V> of(String store, String limitName, String collapsedName, String routedName) {
            return new Routes<>(store, limitName, collapsedName, routedName, limits -> new RouteLimit<>(store, limits), RoutedKey::project);
        }
    }
}
