package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Ports;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.HttpText;
import io.sluice.testkit.RealEngines;

/**
 * sluice_sink_lag_records is the sum over the sink's partitions of the records not yet written to
 * ClickHouse, as sluice_processor_input_lag_records sums the raw partitions: with three partitions
 * behind by known amounts while ClickHouse is away, it reads exactly their sum (the most of any
 * partition would read less), rows the sink has read and holds included, and 0 once they are in.
 */
@ExtendWith(RealEngines.class)
class SinkLagSumIT {
    private static final long TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5)).toEpochMilli();
    private static final Pattern LAG = Pattern.compile("(?m)^sluice_sink_lag_records (\\d+)\\.0$");
    private static final Pattern LAG_AGE = Pattern.compile("(?m)^sluice_sink_lag_age_seconds ([0-9.]+)$");
    private static final Pattern FAILURES = Pattern.compile("(?m)^sluice_sink_insert_failures_total\\{[^}]*} (\\d+)\\.0$");
    /** Rows written to the three partitions after ClickHouse went away: partition 0 in two parts, held and unread. */
    private static final int HELD_ON_0 = 5;
    private static final int UNREAD_ON_0 = 4;
    private static final int ON_1 = 7;
    private static final int ON_2 = 3;

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void theLagIsTheSumOverPartitionsOfRowsNotWrittenHeldRowsIncluded(Engines engines) throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int http = Ports.free();
        int tcp = Ports.free();
        Path data = workDir.resolve("clickhouse");
        ClickHouseServer clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
        String url = clickHouse.httpUrl();
        AtomicInteger sent = new AtomicInteger();
        try (SinkFixture fixture = new SinkFixture("sinklagsum", engines, url, workDir.resolve("state"))) {
            ClickHouseSink sink = fixture.sink("sinklagsum-sink", SinkFixture.limits(20_000, 16 << 20, Duration.ofMillis(200)));
            Thread thread = SinkFixture.start(sink, "sink-lag-sum");
            try {
                String count = "SELECT count() FROM " + fixture.db + ".transactions FINAL";
                for (int partition = 0; partition < 3; partition++) {
                    send(fixture, partition, 1, sent);
                }
                assertEquals("3", Await.until(Duration.ofSeconds(60), "3", () -> HttpText.query(url, count)));
                assertEquals(0L, Await.until("nothing waits once the rows are in", Duration.ofSeconds(30), 0L,
                        () -> lag(fixture.metrics(sink))));

                clickHouse.close();
                // Partition 0's rows are read and held: the failed insert pauses every partition...
                send(fixture, 0, HELD_ON_0, sent);
                Await.until("a failed insert of partition 0's rows", Duration.ofSeconds(60), true,
                        () -> failures(fixture.metrics(sink)) >= 1);
                // ...so these wait unread in Kafka, behind the position on 1 and 2 and behind the held rows on 0.
                send(fixture, 0, UNREAD_ON_0, sent);
                send(fixture, 1, ON_1, sent);
                send(fixture, 2, ON_2, sent);
                long sum = HELD_ON_0 + UNREAD_ON_0 + ON_1 + ON_2;
                long most = HELD_ON_0 + UNREAD_ON_0;
                assertTrue(sum > most, "a max over the partitions would read " + most);
                assertEquals(sum, Await.until("the lag: the sum of the three partitions' unwritten rows", Duration.ofSeconds(30), sum,
                        () -> lag(fixture.metrics(sink))));
                // And goes on saying so while the sink retries with the rows held, freshly measured.
                long failed = failures(fixture.metrics(sink));
                Await.until("another failed insert", Duration.ofSeconds(60), true, () -> failures(fixture.metrics(sink)) > failed);
                Thread.sleep(1500); // at least one more measurement (one a second) after the retry
                String metrics = fixture.metrics(sink);
                assertEquals(sum, lag(metrics));
                assertTrue(lagAge(metrics) < 3, "measured within the last few seconds: " + lagAge(metrics));

                clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
                assertEquals(Integer.toString(sent.get()), Await.until(Duration.ofSeconds(90), Integer.toString(sent.get()),
                        () -> HttpText.query(url, count)));
                assertEquals(0L, Await.until("nothing waits once ClickHouse has every row", Duration.ofSeconds(30), 0L,
                        () -> lag(fixture.metrics(sink))));
            } finally {
                SinkFixture.stop(sink, thread);
            }
        } finally {
            clickHouse.close();
        }
    }

    private static void send(SinkFixture fixture, int partition, int rows, AtomicInteger sent) {
        for (int i = 0; i < rows; i++) {
            fixture.send(partition, SinkFixture.row("lagsum" + sent.getAndIncrement(), TIME, "GET /", 0));
        }
    }

    private static long lag(String metrics) {
        Matcher line = LAG.matcher(metrics);
        return line.find() ? Long.parseLong(line.group(1)) : -1;
    }

    private static double lagAge(String metrics) {
        Matcher line = LAG_AGE.matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(1)) : Double.NaN;
    }

    /** Failed inserts so far, over the sink's tables. */
    private static long failures(String metrics) {
        return HttpText.sum(metrics, FAILURES);
    }
}
