package io.sluice.sink.lifecycle;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;

import io.sluice.fatal.FatalErrors;

/**
 * Keeps the sink's {@link RowPolicy} current: reads the {@code deletions} and {@code project_retention}
 * tables at start and then every {@link #REFRESH}, on a thread of its own (the sink's thread never
 * waits for it). Until the first read succeeds it has none ({@link #current()} is null), and the sink
 * inserts nothing: a row of a deleted user must not go in because the list was not read yet.
 */
public final class RowPolicyFollower implements AutoCloseable {
    /** How soon a change reaches every sink; {@code projects delete-user} waits this long twice before it deletes. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(RowPolicyFollower.class);

    private final Client client;
    private final String database;
    private final ScheduledExecutorService thread = FatalErrors.singleThreadScheduler("sluice-deletions");
    private volatile RowPolicy current;
    private volatile boolean failing;

    private RowPolicyFollower(Client client, String database) {
        this.client = client;
        this.database = database;
    }

    /** Follows the tables of {@code database}, the first read at once. */
    public static RowPolicyFollower start(Client client, String database) {
        RowPolicyFollower follower = new RowPolicyFollower(client, database);
        follower.thread.scheduleWithFixedDelay(follower::refresh, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        return follower;
    }

    /** The policy last read, or null before the first read. */
    public RowPolicy current() {
        return current;
    }

    private void refresh() {
        try {
            current = read(client, database);
            if (failing) {
                LOG.info("reading {}.deletions and {}.project_retention again", database, database);
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("cannot read {}.deletions or {}.project_retention (tried again every {} ms; what was last read stays "
                        + "in force): {}", database, database, REFRESH.toMillis(), e.toString());
                failing = true;
            }
        }
    }

    /** The policy as the tables hold it now (replay reads it once). */
    public static RowPolicy read(Client client, String database) {
        return new RowPolicy(DeletionsTable.read(client, database), RetentionTable.read(client, database));
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
