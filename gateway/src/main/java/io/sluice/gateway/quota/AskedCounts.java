package io.sluice.gateway.quota;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Events asked of each quota since the last {@link #drain}, counted by the request threads and
 * drained by the follower without losing any: a count that races the drain lands either in the
 * entry drained or in a new one, drained next time. A map swapped for an empty one would lose the
 * counts still being added to the old one.
 */
final class AskedCounts {
    private final ConcurrentHashMap<String, Long> counts = new ConcurrentHashMap<>();

    void asked(String quotaKey) {
        counts.merge(quotaKey, 1L, Long::sum);
    }

    /** The counts since the last drain, each removed as it is read. */
    Map<String, Long> drain() {
        Map<String, Long> drained = new HashMap<>();
        for (String quota : counts.keySet()) {
            Long events = counts.remove(quota);
            if (events != null) {
                drained.put(quota, events);
            }
        }
        return drained;
    }
}
