package io.sluice.sink;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import io.sluice.sink.lifecycle.RowPolicyFollower;

/**
 * Brings the stored rows in line with a change just recorded in {@code deletions} or
 * {@code project_retention}: waits until every sink has read it, changes the rows stored before,
 * then looks again, since an insert a sink began before it read the change may land after.
 */
final class StoredRowRounds {
    private final List<String> tables;
    private final int rounds;

    /** @param rounds how many times the rows are changed at most, the first included */
    StoredRowRounds(List<String> tables, int rounds) {
        this.tables = List.copyOf(tables);
        this.rounds = rounds;
    }

    /**
     * @param remaining   per table, how many rows are not yet in line with the change
     * @param change      per table, brings them in line; returns how many it changed
     * @param whatRemains what the rows left are, for the failure
     * @return per table, the rows changed
     * @throws IllegalStateException when rows remain after the last round
     */
    Map<String, Long> run(ToLongFunction<String> remaining, ToLongFunction<String> change, String whatRemains) {
        // Every sink reads the tables each REFRESH: after two, none stores a row without the change.
        pause(RowPolicyFollower.REFRESH.multipliedBy(2));
        Map<String, Long> changed = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            if (round > 1) {
                pause(RowPolicyFollower.REFRESH);
            }
            for (String table : tables) {
                changed.merge(table, change.applyAsLong(table), Long::sum);
            }
            Map<String, Long> left = new LinkedHashMap<>();
            for (String table : tables) {
                long rows = remaining.applyAsLong(table);
                if (rows > 0) {
                    left.put(table, rows);
                }
            }
            if (left.isEmpty()) {
                return changed;
            }
            if (round == rounds) {
                throw new IllegalStateException(whatRemains + " remain after " + rounds + " rounds (still being written: " + left
                        + "); the change is recorded and no sink stores such rows once it has read it: run it again");
            }
        }
        return changed;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while changing the stored rows", e);
        }
    }
}
