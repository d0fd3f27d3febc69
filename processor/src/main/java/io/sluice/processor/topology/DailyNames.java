package io.sluice.processor.topology;

import org.apache.kafka.streams.state.WindowStore;

/**
 * The names a project brought in one event-time day (UTC), in a window store of one-day windows:
 * per (project, day) the admitted names and their count. The first {@code perDay} names of a day
 * are admitted, and stay admitted that day; any later one is not. Keys start with a prefix, so
 * one store can hold the names of several dimensions.
 */
final class DailyNames {
    private static final Long ADMITTED = 1L;
    private static final long DAY_MILLIS = RouteLimit.DAY.toMillis();

    private final WindowStore<String, Long> store;
    private final String prefix;

    DailyNames(WindowStore<String, Long> store, String prefix) {
        this.store = store;
        this.prefix = prefix;
    }

    /** Whether the name counts under its own name, admitting it if the project has room left that day. */
    boolean admits(String project, String name, long timestamp, int perDay) {
        long day = Math.floorDiv(timestamp, DAY_MILLIS) * DAY_MILLIS;
        // A project token has no NUL: the count's key never equals a name's key.
        String nameKey = prefix + project + '\0' + name;
        if (store.fetch(nameKey, day) != null) {
            return true;
        }
        String countKey = prefix + '\0' + project;
        Long admitted = store.fetch(countKey, day);
        long count = admitted == null ? 0 : admitted;
        if (count >= perDay) {
            return false;
        }
        store.put(nameKey, ADMITTED, day);
        store.put(countKey, count + 1, day);
        return true;
    }
}
