package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.metrics.PrometheusMetrics;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * A row refused alone says nothing about whose fault it is: a table that refuses every row (a
 * column changed under the sink) refuses a lone row too. At low traffic a batch is one row, so the
 * sink keeps such a row uncommitted, says it is stalled, and decides only with the next row of its
 * table: the table's fault is waited out, a bad row still ends in the dead letters.
 */
@ExtendWith(RealEngines.class)
class SinkRefusedAloneIT {
    private static final long TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5)).toEpochMilli();
    private static final Pattern LAG = Pattern.compile("(?m)^sluice_sink_lag_records (\\d+)\\.0$");
    private static final SinkLimits LIMITS = new SinkLimits(20_000, 16 << 20, Duration.ofMillis(200), Duration.ofSeconds(2));

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aLoneRowABrokenTableRefusesWaitsThroughARestartAndIsStoredOnceTheTableIsRepaired(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("sinkalone", engines, engines.clickHouseUrl(), stateDir)) {
            String table = fixture.db + ".drifted";
            // "transaction" is a number here: the history row is refused (code 27), as SinkRefusedTableIT's four are.
            ClickHouseQuery.run(engines, "CREATE TABLE " + table + " (event_id String, transaction UInt64) "
                    + "ENGINE = MergeTree ORDER BY event_id");
            fixture.send(0, SinkFixture.row("alone", TIME, "GET /", 0));
            String waiting = "refused the only row for " + table + " (" + fixture.history + "/0@0)";

            PrometheusMetrics firstMetrics = fixture.prometheus();
            ClickHouseSink first = new ClickHouseSink(fixture.client, fixture.kafka, "sinkalone-sink", "",
                    Map.of(fixture.history, table), fixture.deadLetters, LIMITS, firstMetrics);
            Thread thread = SinkFixture.start(first, "sink-alone");
            try {
                assertEquals(true, Await.until(Duration.ofSeconds(60), true,
                        () -> first.metrics().stalled().map(reason -> reason.contains(waiting)).orElse(false)));
                assertEquals(1L, Await.until(Duration.ofSeconds(10), 1L, () -> lag(firstMetrics)));
                assertEquals(0, KafkaRecords.find(engines, fixture.deadLetters, 1, Duration.ofSeconds(3), record -> true).size());
            } finally {
                SinkFixture.stop(first, thread);
            }

            // Restarted (or its partition moved): the row was never committed, so the next owner reads it and waits too.
            PrometheusMetrics againMetrics = fixture.prometheus();
            ClickHouseSink again = new ClickHouseSink(fixture.client, fixture.kafka, "sinkalone-sink", "",
                    Map.of(fixture.history, table), fixture.deadLetters, LIMITS, againMetrics);
            thread = SinkFixture.start(again, "sink-alone-again");
            try {
                assertEquals(true, Await.until(Duration.ofSeconds(60), true,
                        () -> again.metrics().stalled().map(reason -> reason.contains(waiting)).orElse(false)));

                ClickHouseQuery.run(engines, "ALTER TABLE " + table + " MODIFY COLUMN transaction String");
                assertEquals("alone", Await.until(Duration.ofSeconds(60), "alone",
                        () -> ClickHouseQuery.run(engines, "SELECT arrayStringConcat(groupArray(event_id), ',') FROM " + table)));
                assertEquals(Optional.empty(), Await.until(Duration.ofSeconds(30), Optional.empty(), () -> again.metrics().stalled()));
                assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> lag(againMetrics)));
                assertEquals(0, KafkaRecords.find(engines, fixture.deadLetters, 1, Duration.ofSeconds(2), record -> true).size());
                // A plain MergeTree keeps every insert: one row is the row stored exactly once.
                assertEquals("1", ClickHouseQuery.run(engines, "SELECT count() FROM " + table));
            } finally {
                SinkFixture.stop(again, thread);
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aLoneRowClickHouseRefusesWaitsForTheNextRowOfItsTableThenGoesToTheDeadLetters(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("sinkalonebad", engines, engines.clickHouseUrl(), stateDir)) {
            // A lone surrogate: ClickHouse refuses the row (code 25) while the table takes every other row.
            String bad = SinkFixture.row("bad", TIME, "GET /\\ud800x", 0);
            fixture.send(0, bad);
            ClickHouseSink sink = fixture.sink("sinkalonebad-sink", LIMITS);
            Thread thread = SinkFixture.start(sink, "sink-alone-bad");
            try {
                String table = fixture.db + ".transactions";
                String waiting = "refused the only row for " + table + " (" + fixture.history + "/0@0)";
                assertEquals(true, Await.until(Duration.ofSeconds(60), true,
                        () -> sink.metrics().stalled().map(reason -> reason.contains(waiting)).orElse(false)));
                assertEquals(1L, Await.until(Duration.ofSeconds(10), 1L, () -> lag(fixture.metrics(sink))));
                assertEquals(0, KafkaRecords.find(engines, fixture.deadLetters, 1, Duration.ofSeconds(3), record -> true).size());

                // The next row of the table goes in beside it: the table is fine, the row is at fault.
                fixture.send(0, SinkFixture.row("good", TIME, "GET /", 0));
                assertEquals("good", Await.until(Duration.ofSeconds(60), "good", () -> ClickHouseQuery.run(engines,
                        "SELECT arrayStringConcat(groupArray(event_id), ',') FROM " + table + " FINAL")));
                List<ConsumerRecord<byte[], byte[]>> dead = KafkaRecords.find(engines, fixture.deadLetters, 1,
                        Duration.ofSeconds(30), record -> true);
                assertEquals(1, dead.size());
                assertArrayEquals(bad.getBytes(StandardCharsets.UTF_8), dead.get(0).value());
                assertEquals(fixture.history + "/0@0", KafkaRecords.header(dead.get(0), "sluice.dead_letter.source"));
                String reason = KafkaRecords.header(dead.get(0), "sluice.dead_letter.reason");
                assertTrue(reason.contains("Code: 25") && reason.contains("Cannot parse escape sequence"), reason);
                assertEquals(Optional.empty(), Await.until(Duration.ofSeconds(30), Optional.empty(), () -> sink.metrics().stalled()));
                assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> lag(fixture.metrics(sink))));
            } finally {
                SinkFixture.stop(sink, thread);
            }
        }
    }

    private static long lag(PrometheusMetrics metrics) {
        return lag(metrics.scrapeText());
    }

    private static long lag(String metrics) {
        Matcher lag = LAG.matcher(metrics);
        return lag.find() ? Long.parseLong(lag.group(1)) : -1;
    }
}
