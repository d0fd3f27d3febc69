package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
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

/**
 * While Kafka is unreachable neither lag can be measured: the lag gauges keep their last value,
 * and their ages (sluice_sink_lag_age_seconds, sluice_processor_input_lag_age_seconds) grow for as
 * long as that lasts, so a dashboard or an alert can tell a stale number from a current one; once
 * Kafka answers again they are measured again. Uses a broker of its own to stop it.
 */
@ExtendWith(RealEngines.class)
class LagAgeDuringKafkaOutageIT {
    /** Each lag is measured every second while Kafka answers: an age above this is an outage. */
    private static final double FRESH_SECONDS = 3;
    private static final double STALE_SECONDS = 10;

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void theLagAgesGrowWhileKafkaIsUnreachableAndAreFreshOnceItAnswers(Engines engines) throws Exception {
        try (ProcessorOnItsOwnBroker pipeline = ProcessorOnItsOwnBroker.startWithTenStored(engines, workDir, "lagage")) {
            String metrics = pipeline.adminUrl("/metrics");
            assertEquals("0 0 fresh", Await.until("both lags 0 and just measured", Duration.ofSeconds(30), "0 0 fresh",
                    () -> state(HttpText.get(metrics))));

            pipeline.stopKafka();
            assertEquals("0 0 stale", Await.until("both lags at their last value, their ages past " + STALE_SECONDS + " s",
                    Duration.ofSeconds(30), "0 0 stale", () -> state(HttpText.get(metrics))));
            String before = HttpText.get(metrics);
            Thread.sleep(2000);
            String after = HttpText.get(metrics);
            assertTrue(age(after, "sluice_sink_lag_age_seconds") >= age(before, "sluice_sink_lag_age_seconds") + 1.5,
                    "the sink's lag age grows with the outage");
            assertTrue(age(after, "sluice_processor_input_lag_age_seconds") >= age(before, "sluice_processor_input_lag_age_seconds") + 1.5,
                    "the processor's input lag age grows with the outage");

            pipeline.startKafka();
            assertEquals("0 0 fresh", Await.until("both lags measured again", Duration.ofSeconds(60), "0 0 fresh",
                    () -> state(HttpText.get(metrics))));
        }
    }

    /** "<sink lag> <input lag> fresh|stale|mixed": both ages under FRESH_SECONDS, or both above STALE_SECONDS. */
    private static String state(String metrics) {
        double sinkAge = age(metrics, "sluice_sink_lag_age_seconds");
        double inputAge = age(metrics, "sluice_processor_input_lag_age_seconds");
        String ages = sinkAge < FRESH_SECONDS && inputAge < FRESH_SECONDS ? "fresh"
                : sinkAge > STALE_SECONDS && inputAge > STALE_SECONDS ? "stale" : "mixed (" + sinkAge + ", " + inputAge + ")";
        return value(metrics, "sluice_sink_lag_records") + " " + value(metrics, "sluice_processor_input_lag_records") + " " + ages;
    }

    private static String value(String metrics, String gauge) {
        Matcher line = Pattern.compile("(?m)^" + gauge + " (\\d+)\\.0$").matcher(metrics);
        return line.find() ? line.group(1) : "missing";
    }

    private static double age(String metrics, String gauge) {
        Matcher line = Pattern.compile("(?m)^" + gauge + " ([0-9.Ee+-]+)$").matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(1)) : Double.NaN; // missing: neither fresh nor stale
    }
}
