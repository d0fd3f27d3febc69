package io.sluice.processor.topology;

import java.util.List;

/** A value after a cardinality limit, and the names the limit counted under {@code <other>} for it (mostly none). */
record Limited<V>(V value, List<LimitedName> collapsed) {
    static <V> Limited<V> kept(V value) {
        return new Limited<>(value, List.of());
    }
}
