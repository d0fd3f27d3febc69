package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.sluice.sink.RowInserter;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayRequest;

class ReplayPrinterTest {
    private static final Instant FROM = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant TO = Instant.parse("2026-11-22T11:00:00Z");

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ReplayPrinter printer = new ReplayPrinter(new PrintStream(output, true, StandardCharsets.UTF_8));

    @Test
    void aReplayIsPrintedAsItGoesThenSummed() {
        ReplayRequest request = new ReplayRequest(FROM, TO, "shop", Set.of(ReplayRequest.What.HISTORY), false);
        printer.started(request);
        printer.olderRecordsDeleted("sluice.history", Instant.parse("2026-11-22T10:30:00Z"));
        printer.progress("sluice.transactions", 500, 1000, 400, Duration.ofSeconds(2));
        printer.refused("sluice.transactions", new RowInserter.Refused(
                new RowInserter.Row(new byte[0], new byte[0], "sluice.history/0@3"), "Code: 25. bad row"));
        printer.progress("sluice.transactions", 1000, 1000, 800, Duration.ofSeconds(4));
        printer.tableDone("sluice.transactions");
        printer.finished(request, List.of(new Replay.TableSummary("sluice.transactions", 1000, 800, 700, 1)));

        assertEquals("Replaying event times 2026-11-22T10:00:00Z … 2026-11-22T11:00:00Z, project shop\n"
                + "! sluice.history: the range starts before the oldest retained record (2026-11-22T10:30:00Z); older "
                + "events were deleted by Kafka's retention (SLUICE_TOPIC_RAW_RETENTION). Replaying what exists.\n"
                + String.format("\r%-28s read 500/1000 records, 400 rows, 250 records/s, ETA 2 s   ", "sluice.transactions")
                + "\n! sluice.transactions: ClickHouse refused sluice.history/0@3, skipped: Code: 25. bad row\n"
                + String.format("\r%-28s read 1000/1000 records, 800 rows, 250 records/s, ETA 0 s   ", "sluice.transactions")
                + "\n\n"
                + String.format("%-28s %14s %14s %18s %10s%n", "table", "records read", "rows re-sent", "already present", "refused")
                + String.format("%-28s %14d %14d %18s %10s%n", "sluice.transactions", 1000, 800, "700", "1"),
                printed());
    }

    @Test
    void aDryRunCountsAllProjectsAndLeavesWhatItCannotKnowBlank() {
        ReplayRequest request = new ReplayRequest(FROM, TO, null, Set.of(ReplayRequest.What.HISTORY), true);
        printer.started(request);
        printer.progress("sluice.transactions", 0, 0, 0, Duration.ZERO);
        printer.tableDone("sluice.transactions");
        printer.finished(request, List.of(new Replay.TableSummary("sluice.transactions", 0, 0, 0, 0)));

        assertEquals("Dry run: counting event times 2026-11-22T10:00:00Z … 2026-11-22T11:00:00Z, all projects\n"
                + String.format("\r%-28s read 0/0 records, 0 rows, 0 records/s, ETA ?   ", "sluice.transactions") + "\n\n"
                + String.format("%-28s %14s %14s %18s %10s%n", "table", "records read", "rows re-sent", "already present", "refused")
                + String.format("%-28s %14d %14d %18s %10s%n", "sluice.transactions", 0, 0, "-", "-"),
                printed());
    }

    @Test
    void onlyTheFirstTwentyRefusedRowsOfATableArePrinted() {
        RowInserter.Refused row = new RowInserter.Refused(new RowInserter.Row(new byte[0], new byte[0], "t/0@1"), "Code: 25.");
        for (int i = 0; i < 25; i++) {
            printer.refused("sluice.transactions", row);
            printer.refused("sluice.errors", row);
        }
        String printed = printed();
        assertEquals(20, printed.split("! sluice.transactions:", -1).length - 1);
        assertEquals(20, printed.split("! sluice.errors:", -1).length - 1);
    }

    private String printed() {
        return output.toString(StandardCharsets.UTF_8);
    }
}
