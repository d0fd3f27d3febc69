package io.sluice.sink;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.command.CommandSettings;
import com.clickhouse.client.api.query.GenericRecord;

/**
 * The ClickHouse statements deletions and retention changes share: counting a project's rows, and a mutation waited
 * for, on the table that can take it.
 */
final class Mutations {
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    /**
     * {@code Distributed('cluster', 'database', 'local_table', ...)}, the arguments quoted or not; the cluster as written
     * ({@code '{cluster}'}: its macro, which the node that runs the ALTER expands).
     */
    private static final Pattern DISTRIBUTED = Pattern.compile("^Distributed\\(\\s*'?([^',\\s]+)'?\\s*,\\s*'?([^',\\s]+)'?\\s*,\\s*'?([^',\\s)]+)'?");

    private Mutations() {
    }

    /** Rows of the table matching {@code where} ({@code final}: as SELECT ... FINAL counts them, copies as one). */
    static long count(Client client, String table, String where, Map<String, Object> parameters, boolean asFinal) {
        return client.queryAll("SELECT count() AS row_count FROM " + table + (asFinal ? " FINAL" : "") + " WHERE " + where, parameters)
                .get(0).getLong("row_count");
    }

    /**
     * The {@code ALTER TABLE} that runs {@code command} ({@code DELETE ...} or {@code UPDATE ...}) on a table's rows and
     * returns when it is done on every replica. A Distributed table (a cluster's public table) takes no mutation: its
     * local table is altered on every node of its cluster, each shard waiting for its replicas.
     */
    static String alter(Client client, String qualifiedTable, String command) {
        List<GenericRecord> found = client.queryAll("SELECT engine_full FROM system.tables WHERE database = {database:String} "
                + "AND name = {name:String}", Map.of("database", SinkTables.databaseOf(qualifiedTable),
                "name", qualifiedTable.substring(qualifiedTable.indexOf('.') + 1)));
        Matcher distributed = DISTRIBUTED.matcher(found.isEmpty() ? "" : found.get(0).getString("engine_full"));
        String target = distributed.find()
                ? distributed.group(2) + "." + distributed.group(3) + " ON CLUSTER '" + distributed.group(1) + "'"
                : qualifiedTable;
        return "ALTER TABLE " + target + " " + command + " SETTINGS mutations_sync = 2";
    }

    /**
     * Runs {@code command} on the table's rows ({@link #alter}), waiting until it is done everywhere (an ON CLUSTER
     * statement waits for every node as long as this waits, not ClickHouse's default 180 s).
     * @param onFailure what to tell when it fails, before ClickHouse's message
     */
    static void runAndWait(Client client, String qualifiedTable, String command, Map<String, Object> parameters, String onFailure) {
        CommandSettings waited = new CommandSettings();
        waited.serverSetting("distributed_ddl_task_timeout", String.valueOf(TIMEOUT.toSeconds()));
        try {
            client.execute(alter(client, qualifiedTable, command), parameters, waited).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).close();
        } catch (Exception e) {
            throw new IllegalStateException(onFailure + ": " + e.getMessage(), e);
        }
    }
}
