package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.sink.lifecycle.RetentionTable;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** Each project keeps its rows for its own days: the sink writes no row older, and the TTL expires each at its project's. */
@ExtendWith(RealEngines.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RetentionPerProjectIT {
    @TempDir
    Path stateDir;

    @Test
    void theSinkStoresEachRowWithinItsProjectsRetentionAndStampsIt(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("retention", engines, engines.clickHouseUrl(), stateDir)) {
            Instant now = Instant.now();
            RetentionTable.record(fixture.client, fixture.db, "daily", 1, "test", now);
            RetentionTable.record(fixture.client, fixture.db, "monthly", 60, "test", now.minusSeconds(5));
            RetentionTable.record(fixture.client, fixture.db, "monthly", 30, "test", now); // the latest is in force
            for (int day = 0; day < 10; day++) {
                long time = now.minus(Duration.ofDays(day)).minus(Duration.ofHours(1)).toEpochMilli();
                for (String project : new String[] {"daily", "monthly", "global"}) {
                    fixture.send(0, "{\"event_id\":\"" + project + day + "\",\"project\":\"" + project + "\",\"timestamp\":" + time
                            + ",\"received_at\":" + time + ",\"transaction\":\"GET /\"}");
                }
            }
            ClickHouseSink sink = fixture.sink("retention-sink", SinkFixture.limits(20_000, 16 << 20, Duration.ofMillis(200)));
            Thread thread = SinkFixture.start(sink, "sink-retention");
            try {
                String expected = "daily\t1\t1\t1\nglobal\t10\t90\t90\nmonthly\t10\t30\t30";
                assertEquals(expected, Await.until(Duration.ofSeconds(60), expected, () -> ClickHouseQuery.run(engines,
                        "SELECT project, count(), min(retention_days), max(retention_days) FROM " + fixture.db
                                + ".transactions FINAL GROUP BY project ORDER BY project").strip()));
                assertEquals(true, fixture.metrics(sink).contains("sluice_sink_rows_dropped_total{table=\"" + fixture.db
                        + ".transactions\"} 9.0\n"), "the 9 rows of daily older than a day are counted");
                String metrics = fixture.metrics(sink);
                assertEquals(true, metrics.contains("\nsluice_sink_projects_with_own_retention 2.0\n")
                        && metrics.contains("\nsluice_sink_deleted_users 0.0\n") && metrics.contains("\nsluice_sink_deleted_projects 0.0\n"),
                        metrics);
            } finally {
                SinkFixture.stop(sink, thread);
            }
        }
    }

    @Test
    void theTtlExpiresARowAfterItsProjectsRetentionNotTheGlobalOne(Engines engines) {
        try (SinkFixture fixture = new SinkFixture("retentionttl", engines, engines.clickHouseUrl(), stateDir)) {
            String twoDaysAgo = "now64(3) - INTERVAL 2 DAY";
            ClickHouseQuery.run(engines, "INSERT INTO " + fixture.db + ".transactions (event_id, project, timestamp, received_at, "
                    + "retention_days) VALUES ('a', 'daily', " + twoDaysAgo + ", " + twoDaysAgo + ", 1), ('b', 'monthly', "
                    + twoDaysAgo + ", " + twoDaysAgo + ", 30), ('c', 'global', " + twoDaysAgo + ", " + twoDaysAgo + ", DEFAULT)");
            ClickHouseQuery.run(engines, "OPTIMIZE TABLE " + fixture.db + ".transactions FINAL");

            assertEquals("global\t90\nmonthly\t30", ClickHouseQuery.run(engines, "SELECT project, retention_days FROM "
                    + fixture.db + ".transactions ORDER BY project").strip());
        }
    }

    @Test
    void aRetentionChangeWhoseProjectsRowsKeepComingWithoutItFailsAndSaysToRunItAgain(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("retentionrounds", engines, engines.clickHouseUrl(), stateDir)) {
            // A writer that never reads the retentions: its rows keep the global one.
            try (AutoCloseable writer = SinkFixture.keepInserting(engines, i -> "INSERT INTO " + fixture.db + ".transactions (event_id, project, "
                    + "timestamp, received_at) VALUES ('e" + i + "', 'weekly', now64(3), now64(3))")) {
                RetentionChange change = new RetentionChange(fixture.client, fixture.db, 90, SinkTables.of(fixture.kafka.topics(), fixture.db));
                IllegalStateException failure = assertThrows(IllegalStateException.class, () -> change.set("weekly", 7, "test"));
                assertEquals(true, failure.getMessage().contains(fixture.db + ".transactions=") && failure.getMessage().endsWith("run it again"),
                        failure.getMessage());
            }
        }
    }
}
