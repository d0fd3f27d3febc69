package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * A table that refuses every row (a column changed under the sink) is a problem of the table, not
 * of the rows: the sink retries and reports the stall instead of dead-lettering good rows.
 */
@ExtendWith(RealEngines.class)
class SinkRefusedTableIT {
    private static final long TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5)).toEpochMilli();

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aBatchEveryRowOfWhichIsRefusedWithOneCodeIsRetriedNotDeadLettered(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("sinktable", engines, engines.clickHouseUrl(), stateDir)) {
            String table = fixture.db + ".drifted";
            // "transaction" is a number here: every history row is refused (code 27).
            ClickHouseQuery.run(engines, "CREATE TABLE " + table + " (event_id String, transaction UInt64) "
                    + "ENGINE = MergeTree ORDER BY event_id");
            for (int i = 0; i < 4; i++) {
                fixture.send(0, SinkFixture.row("good" + i, TIME, "GET /", 0));
            }
            SinkLimits limits = new SinkLimits(20_000, 16 << 20, Duration.ofMillis(200), Duration.ofSeconds(2));
            ClickHouseSink sink = new ClickHouseSink(fixture.client, fixture.kafka, "sinktable-sink", "",
                    Map.of(fixture.history, table), fixture.deadLetters, limits, fixture.prometheus());
            Thread thread = SinkFixture.start(sink, "sink-table");
            try {
                assertEquals(true, Await.until(Duration.ofSeconds(60), true, () -> sink.metrics().stalled()
                        .map(reason -> reason.contains("all 4 rows of the batch for " + table)).orElse(false)));
                // Retried whole while the table refuses, not bisected again.
                assertEquals(true, Await.until(Duration.ofSeconds(30), true, () -> sink.metrics().stalled()
                        .map(reason -> reason.contains("still refuses all 4 rows of the batch for " + table)).orElse(false)));
                assertEquals(0, KafkaRecords.find(engines, fixture.deadLetters, 1, Duration.ofSeconds(3), record -> true).size());

                ClickHouseQuery.run(engines, "ALTER TABLE " + table + " MODIFY COLUMN transaction String");
                assertEquals("4", Await.until(Duration.ofSeconds(60), "4",
                        () -> ClickHouseQuery.run(engines, "SELECT count() FROM " + table)));
                assertEquals(0, KafkaRecords.find(engines, fixture.deadLetters, 1, Duration.ofSeconds(1), record -> true).size());
            } finally {
                SinkFixture.stop(sink, thread);
            }
        }
    }
}
