package io.sluice.sink.lifecycle;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;

import io.sluice.fatal.FatalErrors;

/**
 * Keeps the sink's {@link Deletions} current: reads the {@code deletions} table at start and then
 * every {@link #REFRESH}, on a thread of its own (the sink's thread never waits for it). Until the
 * first read succeeds it has none ({@link #current()} is null), and the sink inserts nothing: a row
 * of a deleted user must not go in because the list was not read yet.
 */
public final class DeletionsFollower implements AutoCloseable {
    /** How soon a deletion reaches every sink; {@code projects delete-user} waits this long twice before it deletes. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(DeletionsFollower.class);

    private final Client client;
    private final String database;
    private final ScheduledExecutorService thread = FatalErrors.singleThreadScheduler("sluice-deletions");
    private volatile Deletions current;
    private volatile boolean failing;

    private DeletionsFollower(Client client, String database) {
        this.client = client;
        this.database = database;
    }

    /** Follows {@code <database>.deletions}, the first read at once. */
    public static DeletionsFollower start(Client client, String database) {
        DeletionsFollower follower = new DeletionsFollower(client, database);
        follower.thread.scheduleWithFixedDelay(follower::refresh, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        return follower;
    }

    /** The deletions last read, or null before the first read. */
    public Deletions current() {
        return current;
    }

    private void refresh() {
        try {
            current = DeletionsTable.read(client, database);
            if (failing) {
                LOG.info("reading {}.deletions again", database);
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("cannot read {}.deletions (tried again every {} ms; the last list read stays in force): {}",
                        database, REFRESH.toMillis(), e.toString());
                failing = true;
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
