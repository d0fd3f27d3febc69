package io.sluice.sink;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;

import io.sluice.sink.lifecycle.Deletions;
import io.sluice.sink.lifecycle.DeletionsTable;


/**
 * Removes a user's rows, or a whole project's, from ClickHouse, and records the deletion first so
 * that no sink, replay, recompute or dead-letter replay stores them again from what Kafka still
 * holds. Rows are removed with {@code ALTER TABLE … DELETE} and {@code mutations_sync = 2}: the parts
 * are rewritten without them on every replica before this returns, where a lightweight
 * {@code DELETE FROM} would only mark them and leave the data on disk until a merge (not enough for
 * an erasure request).
 */
public final class DataDeletion {
    /** How many times rows are removed at most: an insert already under way may store some after the first removal. */
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
        String where = "project = {project:String}" + (deletion.wholeProject() ? "" : " AND user_id = {user:String}");
        Map<String, Object> parameters = Map.of("project", deletion.project(), "user", deletion.userId());
        return new StoredRowRounds(from, ROUNDS).run(table -> Mutations.count(client, table, where, parameters, true),
                table -> remove(table, where, parameters),
                deletion.wholeProject() ? "rows of project " + deletion.project() : "rows of user " + deletion.userId() + " in project "
                        + deletion.project());
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
}
