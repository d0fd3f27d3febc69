package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.sink.lifecycle.Deletions;
import io.sluice.sink.lifecycle.DeletionsTable;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayListener;
import io.sluice.sink.replay.ReplayRequest;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** A replay under way when a deletion is recorded stores none of its rows after the deletion's pause. */
@ExtendWith(RealEngines.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReplayFollowsDeletionsIT {
    private static final Instant TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));

    @TempDir
    Path stateDir;

    @Test
    void aDeletionRecordedBetweenTwoTablesOfAReplayKeepsTheUsersRowsOutOfTheSecond(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("replaydeletion", engines, engines.clickHouseUrl(), stateDir)) {
            long millis = TIME.toEpochMilli();
            fixture.send(0, "{\"event_id\":\"t1\",\"project\":\"shop\",\"timestamp\":" + millis + ",\"received_at\":" + millis
                    + ",\"user_id\":\"alice\"}");
            fixture.send(fixture.kafka.topics().errorHistory(), 0, ("{\"event_id\":\"e1\",\"project\":\"shop\",\"timestamp\":" + millis
                    + ",\"received_at\":" + millis + ",\"user_id\":\"alice\"}").getBytes(StandardCharsets.UTF_8));
            ReplayListener deletesAliceAfterHistory = new ReplayListener() {
                @Override
                public void tableDone(String table) {
                    if (table.equals(fixture.db + ".transactions")) {
                        DeletionsTable.record(fixture.client, fixture.db, new Deletions.Deletion("shop", "alice"), "test", Instant.now());
                        try {
                            // What projects delete-user waits (2 refreshes) before it removes rows, and more.
                            Thread.sleep(5_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
            List<Replay.TableSummary> summaries = new Replay(fixture.kafka, fixture.eventTimeHorizon, fixture.client, fixture.clickHouse,
                    deletesAliceAfterHistory).run(new ReplayRequest(TIME.minus(Duration.ofHours(1)), Instant.now().plusSeconds(60), null,
                    Set.of(ReplayRequest.What.HISTORY, ReplayRequest.What.ERRORS), false));

            assertEquals(new Replay.TableSummary(fixture.db + ".errors", 1, 0, 0, 0), summaries.get(1));
            assertEquals("1\t0", ClickHouseQuery.run(engines, "SELECT (SELECT count() FROM " + fixture.db + ".transactions FINAL), "
                    + "(SELECT count() FROM " + fixture.db + ".errors FINAL)").strip());
        }
    }
}
