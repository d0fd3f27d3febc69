package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.sluice.sink.RowInserter;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayListener;
import io.sluice.sink.replay.ReplayRequest;

/** Prints a replay as it goes: one progress line per table, rewritten in place, then a summary table. */
final class ReplayPrinter implements ReplayListener {
    /** Refused rows printed per table; a table full of them would bury the rest. */
    private static final int REFUSALS_PRINTED = 20;

    private final PrintStream out;
    private final Map<String, Integer> refusalsPrinted = new HashMap<>();

    ReplayPrinter(PrintStream out) {
        this.out = out;
    }

    @Override
    public void started(ReplayRequest request) {
        out.println((request.dryRun() ? "Dry run: counting" : "Replaying") + " event times " + request.from() + " … "
                + request.to() + (request.project() == null ? ", all projects" : ", project " + request.project()));
    }

    @Override
    public void olderRecordsDeleted(String topic, Instant oldestRetained) {
        out.println("! " + topic + ": the range starts before the oldest retained record ("
                + oldestRetained + "); older events were deleted by Kafka's retention "
                + "(SLUICE_TOPIC_RAW_RETENTION). Replaying what exists.");
    }

    @Override
    public void progress(String table, long recordsRead, long recordsTotal, long rows, Duration elapsed) {
        double seconds = Math.max(0.001, elapsed.toNanos() / 1e9);
        long rate = (long) (recordsRead / seconds);
        long left = Math.max(0, recordsTotal - recordsRead);
        String eta = rate == 0 ? "?" : (left / Math.max(1, rate)) + " s";
        out.printf("\r%-28s read %d/%d records, %d rows, %d records/s, ETA %s   ", table, recordsRead, recordsTotal, rows,
                rate, eta);
    }

    @Override
    public void refused(String table, RowInserter.Refused row) {
        if (refusalsPrinted.merge(table, 1, Integer::sum) <= REFUSALS_PRINTED) {
            out.println();
            out.println("! " + table + ": ClickHouse refused " + row.row().source() + ", skipped: " + row.reason());
        }
    }

    @Override
    public void tableDone(String table) {
        out.println();
    }

    @Override
    public void finished(ReplayRequest request, List<Replay.TableSummary> summaries) {
        out.println();
        out.printf("%-28s %14s %14s %18s %10s%n", "table", "records read", "rows re-sent", "already present", "refused");
        for (Replay.TableSummary summary : summaries) {
            out.printf("%-28s %14d %14d %18s %10s%n", summary.table(), summary.recordsRead(), summary.rowsResent(),
                    request.dryRun() ? "-" : Long.toString(summary.rowsAlreadyPresent()),
                    request.dryRun() ? "-" : Long.toString(summary.rowsRefused()));
        }
    }
}
