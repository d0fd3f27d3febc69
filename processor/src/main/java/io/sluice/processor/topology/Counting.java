package io.sluice.processor.topology;

import java.util.function.Function;

import org.apache.kafka.common.serialization.Serde;

/**
 * One per-minute count of the topology: what it groups events by, what one event adds, and the
 * names of its parts (the repartition topic and the counting stage's store keep the names they had
 * before counting moved into the source partitions, so an upgrade finds them).
 *
 * @param name      the count's name ("traffic"), which names its new parts
 * @param byKey     what the repartition topic is named by (its topic is {@code <application>-<byKey>-repartition})
 * @param store     the counting stage's window store, and its changelog's name
 * @param aggregate the counting stage's processor
 * @param changes   its output stream's processor
 */
record Counting<F, K, C>(String name, String byKey, String store, String aggregate, String changes,
                         Function<F, K> key, Function<F, C> oneEvent, Serde<K> keySerde, Tally<C> tally) {
    /** The source partitions' own counts (window store) and their counts not yet sent on (key-value store). */
    String sourceStore() {
        return name + "-in-source-1m";
    }

    String unsentStore() {
        return name + "-in-source-unsent";
    }
}
