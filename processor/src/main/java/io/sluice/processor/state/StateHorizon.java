package io.sluice.processor.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.format.DateTimeParseException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-time horizon the window stores of a local state directory were built with, kept in a
 * file beside them ({@value #FILE_NAME} in the application's directory). The horizon sets the
 * stores' RocksDB segment interval, and Kafka Streams names segments by it: reopened under another
 * interval, the segments holding the open minutes' counts and the ids already seen are not found.
 * Kafka Streams 4.3 keeps a store's committed offset in its segments, so it usually finds none and
 * restores the task from its changelog; but where a new segment's name is that of an old one, it
 * trusts that segment's offset and goes on without the others: a retry counted twice, a minute
 * whose count restarts (and, its rows having a lower version, an undercount).
 *
 * <p>So a changed horizon wipes the local state before Kafka Streams starts, and Streams restores
 * every store from its changelog, each record into its segment of the new interval (records
 * older than the new retention are dropped, as they would have expired). The horizon is recorded
 * only after the wipe: a crash in between leaves the former one, and the next start wipes again.
 * A directory without the file (a first start, or state written before this file existed) is
 * taken to match the configured horizon.
 */
public final class StateHorizon {
    static final String FILE_NAME = "sluice-event-time-horizon";
    private static final Logger LOG = LoggerFactory.getLogger(StateHorizon.class);

    private StateHorizon() {
    }

    /**
     * Makes the local state in {@code applicationStateDir} fit {@code horizon}: runs
     * {@code wipeLocalState} if its stores were built with another, then records {@code horizon}.
     */
    public static void prepare(Path applicationStateDir, Duration horizon, Runnable wipeLocalState) {
        Path file = applicationStateDir.resolve(FILE_NAME);
        String recorded = read(file);
        if (recorded != null) {
            if (horizon.equals(parse(recorded))) {
                return;
            }
            LOG.warn("the local state in {} was built with event-time horizon {} and SLUICE_EVENT_TIME_HORIZON is now {}: the "
                    + "horizon sets the window stores' RocksDB segments, which the stores would not find under the new one "
                    + "(retries counted twice, counts of open minutes restarting); wiping the local state, then Kafka Streams "
                    + "restores every store from its changelog before this instance processes (a while: the changelogs hold "
                    + "horizon + late margin of events)", applicationStateDir, recorded, horizon);
            wipeLocalState.run();
        } else {
            LOG.info("recording event-time horizon {} for the local state in {}", horizon, applicationStateDir);
        }
        write(file, horizon.toString());
    }

    /** The recorded horizon as written, or null when there is none. */
    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Null for a record that is not a duration (a torn write): it matches no horizon, so the state is wiped. */
    private static Duration parse(String recorded) {
        try {
            return Duration.parse(recorded);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Replaced whole, never left half-written. */
    private static void write(Path file, String horizon) {
        try {
            Files.createDirectories(file.getParent());
            Path written = Files.writeString(file.resolveSibling(FILE_NAME + ".new"), horizon + "\n", StandardCharsets.UTF_8);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the event-time horizon in " + file, e);
        }
    }
}
