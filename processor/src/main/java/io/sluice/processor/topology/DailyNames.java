package io.sluice.processor.topology;

import java.util.HashSet;
import java.util.Set;

import org.apache.kafka.streams.state.WindowStore;

import io.sluice.processor.rows.KeyText;

/**
 * The names a project brought in one event-time day (UTC), in a window store of one-day windows:
 * per (project, day) the admitted names and their count. The first {@code perDay} names of a day
 * are admitted, and stay admitted that day; any later one is not. Keys start with a prefix, so
 * one store can hold the names of several dimensions.
 *
 * <p>Names known admitted are remembered in memory, so a name met again (nearly every event: a
 * project's routes and environments repeat) costs a hash lookup, not a read of the store. What is
 * remembered only caches a fact of the store that holds for the rest of the day. It is built anew
 * with each task initialisation (a task restored after an aborted transaction starts empty). It
 * keeps two generations of at most {@link #REMEMBERED} names: when the newer is full it becomes the
 * older and the oldest is forgotten, and a name found in the older is remembered in the newer, so
 * the names in use stay while rare ones go. Names longer than {@link #REMEMBERED_LENGTH} are always
 * read from the store. So it holds at most about 1.5 MB a limiter whatever clients send (a few
 * hundred bytes a name with its project); a working set beyond it reads the store, as without it.
 */
final class DailyNames {
    /** At most this many admitted names in each generation: a few hundred bytes each at most, a few limiters per task. */
    static final int REMEMBERED = 2_048;
    /** Longer names are not remembered (normalized routes, environments and exception types are mostly shorter). */
    static final int REMEMBERED_LENGTH = 160;
    private static final Long ADMITTED = 1L;
    private static final long DAY_MILLIS = RouteLimit.DAY.toMillis();

    private final WindowStore<String, Long> store;
    private final String prefix;
    private Set<NameOfDay> admitted = new HashSet<>();
    private Set<NameOfDay> admittedBefore = new HashSet<>();

    /** A project's name on a day (the day's start, epoch milliseconds). */
    private record NameOfDay(long day, String project, String name) {
    }

    DailyNames(WindowStore<String, Long> store, String prefix) {
        this.store = store;
        this.prefix = prefix;
    }

    /** Whether the name counts under its own name, admitting it if the project has room left that day. */
    boolean admits(String project, String name, long timestamp, int perDay) {
        long day = Math.floorDiv(timestamp, DAY_MILLIS) * DAY_MILLIS;
        NameOfDay nameOfDay = name.length() <= REMEMBERED_LENGTH ? new NameOfDay(day, project, name) : null;
        if (nameOfDay != null && admitted.contains(nameOfDay)) {
            return true;
        }
        if (nameOfDay != null && admittedBefore.contains(nameOfDay)) {
            remember(nameOfDay);
            return true;
        }
        // A project token has no NUL: the count's key never equals a name's key.
        String nameKey = prefix + KeyText.nul(project, name);
        if (store.fetch(nameKey, day) != null) {
            remember(nameOfDay);
            return true;
        }
        String countKey = prefix + KeyText.nul("", project);
        Long count = store.fetch(countKey, day);
        long admittedSoFar = count == null ? 0 : count;
        if (admittedSoFar >= perDay) {
            return false;
        }
        store.put(nameKey, ADMITTED, day);
        store.put(countKey, admittedSoFar + 1, day);
        remember(nameOfDay);
        return true;
    }

    private void remember(NameOfDay nameOfDay) {
        if (nameOfDay == null) {
            return;
        }
        if (admitted.size() >= REMEMBERED) {
            admittedBefore = admitted;
            admitted = new HashSet<>();
        }
        admitted.add(nameOfDay);
    }
}
