package io.sluice.sink.lifecycle;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.clickhouse.client.api.Client;

/**
 * The {@code project_retention} table: the projects that keep their rows for fewer days than
 * {@code SLUICE_CLICKHOUSE_RETENTION_DAYS}, each change with who made it and when. The sink and replay
 * read it ({@link RowPolicy}); {@code projects set-retention} writes it.
 */
public final class RetentionTable {
    private RetentionTable() {
    }

    /** Each project's retention in days, as last set. */
    public static Map<String, Integer> read(Client client, String database) {
        Map<String, Integer> days = new HashMap<>();
        client.queryAll("SELECT project, argMax(retention_days, changed_at) AS days FROM " + database
                + ".project_retention GROUP BY project").forEach(row -> days.put(row.getString("project"), row.getInteger("days")));
        return days;
    }

    /** Records a project's retention, durably, before it returns. */
    public static void record(Client client, String database, String project, int days, String by, Instant at) {
        try {
            client.execute("INSERT INTO " + database + ".project_retention (project, retention_days, changed_at, changed_by) "
                            + "VALUES ({project:String}, {days:UInt16}, fromUnixTimestamp64Milli({at:Int64}), {by:String})",
                    Map.of("project", project, "days", days, "at", at.toEpochMilli(), "by", by))
                    .get(60, TimeUnit.SECONDS).close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot record the retention of " + project + " in " + database + ".project_retention", e);
        }
    }
}
