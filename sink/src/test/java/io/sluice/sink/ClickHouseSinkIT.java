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
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/** The sink against the real engines: rows ClickHouse refuses, and the byte bound of a batch. */
@ExtendWith(RealEngines.class)
class ClickHouseSinkIT {
    private static final long TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5)).toEpochMilli();

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRowClickHouseRefusesGoesToTheDeadLettersAndEveryOtherRowIsStored(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("sinkrefused", engines, engines.clickHouseUrl(), stateDir)) {
            for (int i = 0; i < 5; i++) {
                fixture.send(0, SinkFixture.row("good" + i, TIME, "GET /", 0));
            }
            // A lone surrogate: ClickHouse refuses the row (code 25, CANNOT_PARSE_ESCAPE_SEQUENCE).
            String bad = SinkFixture.row("bad", TIME, "GET /\\ud800x", 0);
            fixture.send(0, bad);
            for (int i = 5; i < 10; i++) {
                fixture.send(0, SinkFixture.row("good" + i, TIME, "GET /", 0));
            }
            ClickHouseSink sink = fixture.sink("sinkrefused-sink", SinkFixture.limits(20_000, 16 << 20, Duration.ofMillis(200)));
            Thread thread = SinkFixture.start(sink, "sink-refused");
            try {
                String good = "good0,good1,good2,good3,good4,good5,good6,good7,good8,good9";
                assertEquals(good, Await.until(Duration.ofSeconds(60), good, () -> eventIds(engines, fixture.db)));

                List<ConsumerRecord<byte[], byte[]>> dead = KafkaRecords.find(engines, fixture.deadLetters, 1,
                        Duration.ofSeconds(30), record -> true);
                assertEquals(1, dead.size());
                assertArrayEquals(bad.getBytes(StandardCharsets.UTF_8), dead.get(0).value());
                assertEquals(fixture.history + "/0@5", KafkaRecords.header(dead.get(0), "sluice.dead_letter.source"));
                String reason = KafkaRecords.header(dead.get(0), "sluice.dead_letter.reason");
                assertTrue(reason.contains("Code: 25") && reason.contains("Cannot parse escape sequence"), reason);

                fixture.send(0, SinkFixture.row("later", TIME, "GET /", 0));
                String all = good + ",later";
                assertEquals(all, Await.until(Duration.ofSeconds(60), all, () -> eventIds(engines, fixture.db)));
                String metrics = fixture.metrics(sink);
                assertTrue(metrics.contains("sluice_sink_dead_letters_total{table=\"" + fixture.db + ".transactions\"} 1.0\n"),
                        metrics);
            } finally {
                SinkFixture.stop(sink, thread);
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aBatchIsInsertedWhenItReachesTheByteBound(Engines engines) throws Exception {
        try (SinkFixture fixture = new SinkFixture("sinkbytes", engines, engines.clickHouseUrl(), stateDir)) {
            // 999-byte rows (1,000 with the newline), a 5,000-byte bound, an hour's interval: the
            // first ten rows go in two batches of five, the last two wait for the interval.
            for (int i = 0; i < 12; i++) {
                fixture.send(0, SinkFixture.row(String.format("row%02d", i), TIME, "GET /", 999));
            }
            ClickHouseSink sink = fixture.sink("sinkbytes-sink", SinkFixture.limits(20_000, 5_000, Duration.ofHours(1)));
            Thread thread = SinkFixture.start(sink, "sink-bytes");
            try {
                String ten = "row00,row01,row02,row03,row04,row05,row06,row07,row08,row09";
                assertEquals(ten, Await.until(Duration.ofSeconds(60), ten, () -> eventIds(engines, fixture.db)));
                String metrics = fixture.metrics(sink);
                assertTrue(metrics.contains("sluice_sink_batch_rows_count 2\n"), metrics);
            } finally {
                SinkFixture.stop(sink, thread);
            }
            // Closing writes what was read: the last two.
            assertEquals("12", ClickHouseQuery.run(engines, "SELECT count() FROM " + fixture.db + ".transactions FINAL"));
        }
    }

    private static String eventIds(Engines engines, String db) {
        return ClickHouseQuery.run(engines, "SELECT arrayStringConcat(groupArray(event_id), ',') FROM (SELECT event_id FROM "
                + db + ".transactions FINAL ORDER BY event_id)");
    }
}
