package io.sluice.sink.lifecycle;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.clickhouse.client.api.Client;

import io.sluice.fatal.FatalErrors;

/**
 * Keeps the sink's {@link RowPolicy} current: reads the {@code deletions} and {@code project_retention}
 * tables at start and then every {@link #REFRESH}, on a thread of its own (the sink's thread never
 * waits for it). Until the first read succeeds, and whenever the last one is older than
 * {@link #MAX_AGE}, it has none ({@link #current()} is null), and the sink inserts nothing: a row of a
 * deleted user must not go in because the list was not read, or not lately.
 */
public final class RowPolicyFollower implements AutoCloseable {
    /** How soon a change reaches every sink; {@code projects delete-user} waits this long twice before it deletes. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    /** How old a read may be and still be in force: a few refreshes missed are a busy ClickHouse, more are an outage. */
    public static final Duration MAX_AGE = REFRESH.multipliedBy(3);
    private static final Logger LOG = LoggerFactory.getLogger(RowPolicyFollower.class);

    private final Supplier<RowPolicy> reader;
    private final String tables;
    private final LongSupplier nanoClock;
    private final ScheduledExecutorService thread = FatalErrors.singleThreadScheduler("sluice-deletions");
    private volatile RowPolicy current;
    /** When the read of {@link #current} was asked for, by {@link #nanoClock}. */
    private volatile long readNanos;
    private volatile boolean failing;

    RowPolicyFollower(Supplier<RowPolicy> reader, String tables, LongSupplier nanoClock) {
        this.reader = reader;
        this.tables = tables;
        this.nanoClock = nanoClock;
    }

    /** Follows the tables of {@code database}, the first read at once. */
    public static RowPolicyFollower start(Client client, String database) {
        RowPolicyFollower follower = new RowPolicyFollower(() -> read(client, database),
                database + ".deletions and " + database + ".project_retention", System::nanoTime);
        follower.thread.scheduleWithFixedDelay(follower::refresh, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        return follower;
    }

    /** The policy last read, or null before the first read and while the last is older than {@link #MAX_AGE}. */
    public RowPolicy current() {
        RowPolicy policy = current;
        return policy != null && nanoClock.getAsLong() - readNanos <= MAX_AGE.toNanos() ? policy : null;
    }

    /**
     * The policy in force, waiting up to {@code patience} for one (replay's thread may wait; the sink's never does).
     * @throws IllegalStateException when none is in force by then
     */
    public RowPolicy awaitCurrent(Duration patience) {
        long deadline = nanoClock.getAsLong() + patience.toNanos();
        RowPolicy policy;
        while ((policy = current()) == null) {
            if (nanoClock.getAsLong() >= deadline) {
                throw new IllegalStateException("cannot read " + tables + " (for " + patience.toSeconds() + " s): no row is stored "
                        + "without them, in case one was deleted");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting to read " + tables, e);
            }
        }
        return policy;
    }

    /** Seconds since the policy was last read, with millisecond precision; NaN before the first read. */
    public double ageSeconds() {
        return current == null ? Double.NaN : (nanoClock.getAsLong() - readNanos) / 1_000_000 / 1000.0;
    }

    /** One read of the tables. */
    void refresh() {
        try {
            long asked = nanoClock.getAsLong(); // a slow answer tells the tables as they were when asked
            RowPolicy read = reader.get();
            readNanos = asked;
            current = read;
            if (failing) {
                LOG.info("reading {} again", tables);
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warn("cannot read {} (tried again every {} ms; what was last read stays in force for {} ms, then nothing "
                        + "is inserted until they are read): {}", tables, REFRESH.toMillis(), MAX_AGE.toMillis(), e.toString());
                failing = true;
            }
        }
    }

    /** The policy as the tables hold it now. */
    public static RowPolicy read(Client client, String database) {
        return new RowPolicy(DeletionsTable.read(client, database), RetentionTable.read(client, database));
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
