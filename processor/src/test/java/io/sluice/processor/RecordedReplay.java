package io.sluice.processor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.sluice.sink.RowInserter;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayListener;
import io.sluice.sink.replay.ReplayRequest;

/** What a replay reported that the tests check: retention gaps and refused rows, as "topic" and "table: source, reason". */
class RecordedReplay implements ReplayListener {
    final List<String> olderRecordsDeleted = new ArrayList<>();
    final List<String> refused = new ArrayList<>();

    @Override
    public void started(ReplayRequest request) {
    }

    @Override
    public void olderRecordsDeleted(String topic, Instant oldestRetained) {
        olderRecordsDeleted.add(topic);
    }

    @Override
    public void progress(String table, long recordsRead, long recordsTotal, long rows, Duration elapsed) {
    }

    @Override
    public void refused(String table, RowInserter.Refused row) {
        refused.add(table + ": " + row.row().source() + ", " + row.reason());
    }

    @Override
    public void tableDone(String table) {
    }

    @Override
    public void finished(ReplayRequest request, List<Replay.TableSummary> summaries) {
    }
}
