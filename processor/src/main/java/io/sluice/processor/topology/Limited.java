package io.sluice.processor.topology;

import java.util.List;

import org.apache.kafka.streams.KeyValue;

/** A value after a cardinality limit, and the names the limit counted under {@code <other>} for it (mostly none). */
record Limited<V>(V value, List<LimitedName> collapsed) {
    static <V> Limited<V> kept(V value) {
        return new Limited<>(value, List.of());
    }

    /** Each name counted under {@code <other>} with its project, for the outcomes: none for nearly every value, and no stream built for none. */
    List<KeyValue<String, LimitedName>> collapsedIn(String project) {
        return collapsed.isEmpty() ? List.of() : collapsed.stream().map(name -> KeyValue.pair(project, name)).toList();
    }
}
