package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.HttpText;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.ThreadWakeups;

/**
 * A sink with nothing to write does only what waiting for rows takes: its thread waits for rows until
 * its next task is due (the lag's measurement, each second), not 100 ms at a time.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IdleSinkIT {
    private static final long TIME = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5)).toEpochMilli();
    private static final Duration IDLE = Duration.ofSeconds(10);

    @TempDir
    Path stateDir;

    /** What an idle interval is measured by: the sink's Prometheus text and its thread's name. */
    private interface IdleCheck {
        void check(SinkFixture fixture, ClickHouseSink sink, String thread) throws Exception;
    }

    @Test
    void anIdleSinkWaitsForRowsUntilItsNextTaskIsDue(Engines engines) throws Exception {
        whileIdle(engines, "sinkidlewakes", (fixture, sink, thread) -> {
            long before = ThreadWakeups.of(thread);
            Thread.sleep(IDLE.toMillis());
            long wakeups = ThreadWakeups.of(thread) - before;
            // Waits for records up to the lag's next measurement, and wakes for its consumer's network (fetches answered
            // every 500 ms, the heartbeat thread's turns on the client): 82 in 10 s as measured; before, it also woke
            // every 100 ms: 184.
            assertTrue(wakeups <= 130, wakeups + " wake-ups in " + IDLE.toSeconds() + " s");
        });
    }

    /** A sink that wrote its one row and has nothing left to do. */
    private void whileIdle(Engines engines, String name, IdleCheck check) throws Exception {
        try (SinkFixture fixture = new SinkFixture(name, engines, engines.clickHouseUrl(), stateDir.resolve(name))) {
            ClickHouseSink sink = fixture.sink(name + "-sink", SinkFixture.limits(20_000, 16 << 20, Duration.ofMillis(200)));
            Thread thread = SinkFixture.start(sink, name);
            try {
                fixture.send(0, SinkFixture.row(name, TIME, "GET /", 0));
                assertEquals("1", Await.until(Duration.ofSeconds(60), "1",
                        () -> HttpText.query(engines.clickHouseUrl(), "SELECT count() FROM " + fixture.db + ".transactions FINAL")));
                assertEquals(0L, Await.until("nothing waits once the row is in", Duration.ofSeconds(30), 0L,
                        () -> counter(fixture.metrics(sink), "sluice_sink_lag_records")));
                check.check(fixture, sink, name);
            } finally {
                SinkFixture.stop(sink, thread);
            }
        }
    }

    private static long counter(String metrics, String name) {
        Matcher value = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? ([0-9.E]+)$").matcher(metrics);
        if (!value.find()) {
            throw new AssertionError(name + " not in\n" + metrics);
        }
        return Math.round(Double.parseDouble(value.group(2)));
    }
}
