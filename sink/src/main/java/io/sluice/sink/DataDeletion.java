package io.sluice.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;

import io.sluice.sink.lifecycle.Deletions;
import io.sluice.sink.lifecycle.DeletionsTable;
import io.sluice.sink.lifecycle.RowPolicyFollower;


/**
 * Removes a user's rows, or a whole project's, from ClickHouse, and records the deletion first so
 * that no sink, replay, recompute or dead-letter replay stores them again from what Kafka still
 * holds. Rows are removed with {@code ALTER TABLE … DELETE} and {@code mutations_sync = 2}: the parts
 * are rewritten without them on every replica before this returns, where a lightweight
 * {@code DELETE FROM} would only mark them and leave the data on disk until a merge (not enough for
 * an erasure request).
 */
public final class DataDeletion {
    /** How many times rows that an insert already under way stored after the first removal are looked for again. */
    private static final int ROUNDS = 5;

    private final Client client;
    private final String database;
    private final SinkTables tables;

    public DataDeletion(Client client, String database, SinkTables tables) {
        this.client = client;
        this.database = database;
        this.tables = tables;
    }

    /** Removes every history and error row (payload included) of this user in this project; returns the rows removed per table. */
    public Map<String, Long> deleteUser(String project, String userId, String by) {
        if (userId.isEmpty()) {
            throw new IllegalArgumentException("a user id is not empty");
        }
        return delete(new Deletions.Deletion(project, userId), List.of(tables.transactions().table(), tables.errors().table()), by);
    }

    /** Removes every row of this project from every table; returns the rows removed per table. */
    public Map<String, Long> deleteProject(String project, String by) {
        return delete(new Deletions.Deletion(project, ""), tables.all().stream().map(SinkTables.Table::table).toList(), by);
    }

    private Map<String, Long> delete(Deletions.Deletion deletion, List<String> from, String by) {
        DeletionsTable.record(client, database, deletion, by, Instant.now());
        // Every sink reads the deletions each REFRESH: after two, none inserts these rows any more.
        pause(RowPolicyFollower.REFRESH.multipliedBy(2));
        String where = "project = {project:String}" + (deletion.wholeProject() ? "" : " AND user_id = {user:String}");
        Map<String, Object> parameters = Map.of("project", deletion.project(), "user", deletion.userId());
        Map<String, Long> removed = new LinkedHashMap<>();
        for (String table : from) {
            removed.put(table, remove(table, where, parameters));
        }
        // An insert a sink began before it read the deletion may still land after the removal: look again.
        for (int round = 1; round < ROUNDS && from.stream().anyMatch(table -> Mutations.count(client, table, where, parameters, true) > 0);
                round++) {
            pause(RowPolicyFollower.REFRESH);
            for (String table : from) {
                removed.merge(table, remove(table, where, parameters), Long::sum);
            }
        }
        return removed;
    }

    /** Removes the matching rows; returns how many there were (as a query with FINAL counts them: copies are one). */
    private long remove(String table, String where, Map<String, Object> parameters) {
        long rows = Mutations.count(client, table, where, parameters, true);
        if (rows > 0) {
            Mutations.runAndWait(client, table, "DELETE WHERE " + where, parameters, "removing rows from " + table
                    + " failed (the deletion is recorded: no row of it is stored again; run the same command again to remove the rest)");
        }
        return rows;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting", e);
        }
    }
}
