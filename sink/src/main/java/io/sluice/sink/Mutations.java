package io.sluice.sink;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.command.CommandSettings;

/** The ClickHouse statements deletions and retention changes share: counting a project's rows, and a mutation waited for. */
final class Mutations {
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private Mutations() {
    }

    /** Rows of the table matching {@code where} ({@code final}: as SELECT ... FINAL counts them, copies as one). */
    static long count(Client client, String table, String where, Map<String, Object> parameters, boolean asFinal) {
        return client.queryAll("SELECT count() AS row_count FROM " + table + (asFinal ? " FINAL" : "") + " WHERE " + where, parameters)
                .get(0).getLong("row_count");
    }

    /**
     * Runs an {@code ALTER TABLE ... DELETE} or {@code UPDATE} with {@code mutations_sync = 2}: done on every
     * replica when this returns. @param onFailure what to tell when it fails, before ClickHouse's message
     */
    static void runAndWait(Client client, String alter, Map<String, Object> parameters, String onFailure) {
        CommandSettings synchronous = new CommandSettings();
        synchronous.serverSetting("mutations_sync", "2");
        try {
            client.execute(alter, parameters, synchronous).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).close();
        } catch (Exception e) {
            throw new IllegalStateException(onFailure + ": " + e.getMessage(), e);
        }
    }
}
