package io.sluice.admin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** An answer's extra fields, copied once, in their given order (Map.copyOf would lose it). */
final class Details {
    private Details() {
    }

    static Map<String, String> copyOf(Map<String, String> details) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
}
