package io.sluice.sink.lifecycle;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.clickhouse.client.api.Client;

/**
 * The {@code deletions} table: what was deleted, when and by whom. The sink and replay read it
 * ({@link Deletions}); {@code projects delete-user} and {@code projects delete} write it before they
 * remove any row, so that no row of it is stored again from what Kafka still holds.
 */
public final class DeletionsTable {
    private DeletionsTable() {
    }

    /** Every deletion recorded. */
    public static Deletions read(Client client, String database) {
        return Deletions.of(client.queryAll("SELECT project, user_id FROM " + database + ".deletions").stream()
                .map(row -> new Deletions.Deletion(row.getString("project"), row.getString("user_id"))).toList());
    }

    /** Records a deletion (a user's, or the whole project's when its user id is empty), durably, before it returns. */
    public static void record(Client client, String database, Deletions.Deletion deletion, String by, Instant at) {
        try {
            client.execute("INSERT INTO " + database + ".deletions (project, user_id, deleted_at, deleted_by) "
                            + "VALUES ({project:String}, {user:String}, fromUnixTimestamp64Milli({at:Int64}), {by:String})",
                    Map.of("project", deletion.project(), "user", deletion.userId(), "at", at.toEpochMilli(), "by", by))
                    .get(60, TimeUnit.SECONDS).close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot record the deletion of " + deletion + " in " + database + ".deletions", e);
        }
    }
}
