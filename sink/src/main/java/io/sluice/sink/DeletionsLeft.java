package io.sluice.sink;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;

import io.sluice.sink.lifecycle.Deletions;

/**
 * Recorded deletions whose rows a table still holds: what {@code projects delete-user} or {@code delete} has not
 * finished, whatever stopped it (a failed or interrupted command, a killed mutation). One query per table, each
 * reading only the deleted projects' rows (project leads every table's key), at most {@link #LIMIT} deletions each.
 */
public final class DeletionsLeft {
    private static final int LIMIT = 100;

    /** A deletion and the tables (unqualified) that still hold rows of it. */
    public record Left(Deletions.Deletion deletion, List<String> tables) {
    }

    private DeletionsLeft() {
    }

    /** Deletions with rows left, by project then user. */
    public static List<Left> find(Client client, String database, SinkTables tables) {
        String deletions = database + ".deletions";
        String wholeProjects = "(SELECT project FROM " + deletions + " WHERE user_id = '')";
        Map<Deletions.Deletion, List<String>> left = new TreeMap<>(
                Comparator.comparing(Deletions.Deletion::project).thenComparing(Deletions.Deletion::userId));
        for (SinkTables.Table table : tables.all()) {
            // A user's rows are only in the history tables (one row per event, with its user id).
            String sql = !table.aggregate()
                    ? "SELECT DISTINCT project, if(project IN " + wholeProjects + ", '', user_id) AS deleted_user FROM " + table.table()
                            + " WHERE project IN (SELECT project FROM " + deletions + ") AND (project IN " + wholeProjects
                            + " OR (project, user_id) IN (SELECT project, user_id FROM " + deletions + " WHERE user_id != ''))"
                    : "SELECT DISTINCT project, '' AS deleted_user FROM " + table.table() + " WHERE project IN " + wholeProjects;
            for (GenericRecord row : client.queryAll(sql + " LIMIT " + LIMIT)) {
                left.computeIfAbsent(new Deletions.Deletion(row.getString("project"), row.getString("deleted_user")), d -> new ArrayList<>())
                        .add(table.table().substring(table.table().indexOf('.') + 1));
            }
        }
        return left.entrySet().stream().map(entry -> new Left(entry.getKey(), List.copyOf(entry.getValue()))).toList();
    }
}
