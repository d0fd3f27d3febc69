package io.sluice.sink;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.clickhouse.client.api.Client;

import io.sluice.sink.lifecycle.RetentionTable;


/**
 * Sets a project's retention: recorded first (every sink and replay writes its rows with it and
 * stores none older), then the rows already stored get it too, so the TTL expires them at their
 * project's days in ClickHouse's next merges. Bounded by the global retention, the most any project keeps.
 */
public final class RetentionChange {
    /** The rows are given it, then looked at once more: an insert a sink began before it read the change may land after. */
    private static final int ROUNDS = 2;
    private final Client client;
    private final String database;
    private final int maxDays;
    private final List<String> tables;

    /** @param maxDays {@code SLUICE_CLICKHOUSE_RETENTION_DAYS} */
    public RetentionChange(Client client, String database, int maxDays, SinkTables tables) {
        this.client = client;
        this.database = database;
        this.maxDays = maxDays;
        this.tables = tables.all().stream().map(SinkTables.Table::table).toList();
    }

    /**
     * Sets the project's retention; returns, per table, the rows stored now that were given it.
     * @throws IllegalArgumentException when {@code days} is below 1 or above the global retention
     */
    public Map<String, Long> set(String project, int days, String by) {
        if (days < 1 || days > maxDays) {
            throw new IllegalArgumentException("a project keeps its rows 1 to " + maxDays + " days (SLUICE_CLICKHOUSE_RETENTION_DAYS), not " + days);
        }
        RetentionTable.record(client, database, project, days, by, Instant.now());
        Map<String, Object> parameters = Map.of("project", project, "days", days);
        String where = "project = {project:String} AND retention_days != {days:UInt16}";
        return new StoredRowRounds(tables, ROUNDS).run(table -> Mutations.count(client, table, where, parameters, false), table -> {
            long rows = Mutations.count(client, table, where, parameters, false);
            if (rows > 0) {
                Mutations.runAndWait(client, table, "UPDATE retention_days = {days:UInt16} WHERE " + where, parameters,
                        "giving the rows of " + table + " their retention failed (the retention is recorded: new rows have it; run the "
                                + "same command again for the stored ones)");
            }
            return rows;
        }, "rows of project " + project + " without its retention of " + days + " days");
    }
}
