package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** A deletion returns only when the rows are gone: rows still being written after its last round fail it. */
@ExtendWith(RealEngines.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DataDeletionIT {
    @TempDir
    Path stateDir;

    @Test
    void aDeletionWhoseRowsKeepBeingWrittenFailsAndSaysToRunItAgain(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("deletionrounds", engines, engines.clickHouseUrl(), stateDir)) {
            // A writer that never reads the deletions: its rows land after every removal.
            try (AutoCloseable writer = SinkFixture.keepInserting(engines, i -> "INSERT INTO " + fixture.db + ".transactions (event_id, project, "
                    + "user_id, timestamp, received_at) VALUES ('e" + i + "', 'shop', 'alice', now64(3), now64(3))")) {
                DataDeletion deletion = new DataDeletion(fixture.client, fixture.db, SinkTables.of(fixture.kafka.topics(), fixture.db));
                IllegalStateException failure = assertThrows(IllegalStateException.class, () -> deletion.deleteUser("shop", "alice", "test"));
                assertEquals(true, failure.getMessage().contains(fixture.db + ".transactions=") && failure.getMessage().endsWith("run it again"),
                        failure.getMessage());
            }
        }
    }
}
