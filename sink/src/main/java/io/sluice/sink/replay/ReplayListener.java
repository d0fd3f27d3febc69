package io.sluice.sink.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.sluice.sink.RowInserter;

/**
 * What a replay reports while it runs, in this order: started, then per table (the rest), then
 * finished. Each report is ignored unless a listener overrides it.
 */
public interface ReplayListener {
    default void started(ReplayRequest request) {
    }

    /** Kafka's retention deleted the records of {@code topic} before {@code oldestRetained}, which the range asks for. */
    default void olderRecordsDeleted(String topic, Instant oldestRetained) {
    }

    /** About once a second while a table is replayed, and once when it is done. */
    default void progress(String table, long recordsRead, long recordsTotal, long rows, Duration elapsed) {
    }

    /** ClickHouse refused this row for its content; the replay skipped it. */
    default void refused(String table, RowInserter.Refused row) {
    }

    default void tableDone(String table) {
    }

    default void finished(ReplayRequest request, List<Replay.TableSummary> summaries) {
    }
}
