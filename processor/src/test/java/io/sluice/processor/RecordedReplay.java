package io.sluice.processor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.sluice.sink.RowInserter;
import io.sluice.sink.replay.ReplayListener;

/** What a replay reported that the tests check: retention gaps and refused rows, as "topic" and "table: source, reason". */
class RecordedReplay implements ReplayListener {
    final List<String> olderRecordsDeleted = new ArrayList<>();
    final List<String> refused = new ArrayList<>();

    @Override
    public void olderRecordsDeleted(String topic, Instant oldestRetained) {
        olderRecordsDeleted.add(topic);
    }

    @Override
    public void refused(String table, RowInserter.Refused row) {
        refused.add(table + ": " + row.row().source() + ", " + row.reason());
    }
}
