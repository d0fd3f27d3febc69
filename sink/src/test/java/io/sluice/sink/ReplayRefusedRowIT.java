package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayListener;
import io.sluice.sink.replay.ReplayRequest;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** A row ClickHouse refuses does not stop a replay: it is reported and every other row is stored. */
@ExtendWith(RealEngines.class)
class ReplayRefusedRowIT {
    private static final Instant TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRefusedRowIsReportedAndTheOtherRowsAreReplayed(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("replayrefused", engines, engines.clickHouseUrl(), stateDir)) {
            for (int i = 0; i < 3; i++) {
                fixture.send(0, SinkFixture.row("good" + i, TIME.toEpochMilli(), "GET /", 0));
            }
            fixture.send(0, SinkFixture.row("bad", TIME.toEpochMilli(), "GET /\\ud800x", 0));
            for (int i = 3; i < 6; i++) {
                fixture.send(0, SinkFixture.row("good" + i, TIME.toEpochMilli(), "GET /", 0));
            }
            List<String> refused = new ArrayList<>();
            ReplayListener reported = new ReplayListener() {
                @Override
                public void refused(String table, RowInserter.Refused row) {
                    refused.add(table + ": " + row.row().source() + ", " + row.reason());
                }
            };
            List<Replay.TableSummary> summaries = new Replay(fixture.kafka, fixture.eventTimeHorizon,
                    fixture.client, fixture.clickHouse, reported)
                    .run(new ReplayRequest(TIME.minus(Duration.ofHours(1)), Instant.now().plusSeconds(60), null,
                            Set.of(ReplayRequest.What.HISTORY), false));

            assertEquals(new Replay.TableSummary(fixture.db + ".transactions", 7, 7, 0, 1), summaries.get(0));
            assertEquals("good0,good1,good2,good3,good4,good5", ClickHouseQuery.run(engines,
                    "SELECT arrayStringConcat(groupArray(event_id), ',') FROM (SELECT event_id FROM " + fixture.db
                            + ".transactions FINAL ORDER BY event_id)"));
            assertEquals(1, refused.size(), refused.toString());
            assertTrue(refused.get(0).startsWith(fixture.db + ".transactions: " + fixture.history + "/0@3, Code: 25."),
                    refused.toString());
        }
    }
}
