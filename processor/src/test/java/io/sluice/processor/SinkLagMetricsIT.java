package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Ports;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.HttpText;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * The sink's metrics tell the truth about an outage, by value: sluice_sink_lag_records ("records in
 * the output topics not yet written to ClickHouse") is above 0 while ClickHouse is away and rows
 * wait, sluice_sink_insert_failures_total counts the failed inserts, and once ClickHouse is back
 * the lag returns to 0 and the failures stop growing.
 */
@ExtendWith(RealEngines.class)
class SinkLagMetricsIT {
    private static final Pattern LAG = Pattern.compile("(?m)^sluice_sink_lag_records (\\d+)\\.0$");
    private static final Pattern FAILURES =
            Pattern.compile("(?m)^sluice_sink_insert_failures_total\\{table=\"sluice_sinklag\\.[a-z_0-9]+\"} (\\d+)\\.0$");

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void lagAndFailuresRiseWhileClickHouseIsAwayAndLagReturnsToZeroAfter(Engines engines) throws Exception {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        int http = Ports.free();
        int tcp = Ports.free();
        Path data = workDir.resolve("clickhouse");
        ClickHouseServer clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
        Map<String, String> values = TestSettings.isolated("sinklag", engines, workDir.resolve("state"))
                .with("SLUICE_CLICKHOUSE_URL", clickHouse.httpUrl()).toMap();
        Instant minute = Instant.now().minusSeconds(120);
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)));
        String metrics = "http://127.0.0.1:" + processor.adminPort() + "/metrics";
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            String url = clickHouse.httpUrl();
            for (int i = 0; i < 20; i++) {
                raw.transaction("sinklag.transactions", "shop", "before" + i, minute, 200);
            }
            assertEquals("20", Await.until(Duration.ofSeconds(60), "20", () -> HttpText.query(url, "SELECT count() FROM sluice_sinklag.transactions FINAL")));
            assertEquals("0 0", Await.until("idle: no lag, no failures", Duration.ofSeconds(30), "0 0",
                    () -> lag(HttpText.get(metrics)) + " " + failures(HttpText.get(metrics))));

            clickHouse.close();
            for (int i = 0; i < 200; i++) {
                raw.transaction("sinklag.transactions", "shop", "during" + i, minute, 200);
            }
            Await.until("a failed insert", Duration.ofSeconds(60), true, () -> failures(HttpText.get(metrics)) >= 1);
            // Rows wait in every output topic the processor wrote to: the lag must say so, and go on saying so.
            Await.until("lag above 0 while ClickHouse is away", Duration.ofSeconds(30), true, () -> lag(HttpText.get(metrics)) > 0);
            long failed = failures(HttpText.get(metrics));
            Await.until("more failed inserts as the sink retries", Duration.ofSeconds(30), true, () -> failures(HttpText.get(metrics)) > failed);
            assertTrue(lag(HttpText.get(metrics)) > 0, "lag still above 0 while the rows wait");

            clickHouse = ClickHouseServer.start(chdb, data, http, tcp, workDir.resolve("ch.log"));
            String back = clickHouse.httpUrl();
            assertEquals("220", Await.until(Duration.ofSeconds(90), "220",
                    () -> HttpText.query(back, "SELECT count() FROM sluice_sinklag.transactions FINAL")));
            assertEquals(0L, Await.until("lag back to 0", Duration.ofSeconds(30), 0L, () -> lag(HttpText.get(metrics))));
            long after = failures(HttpText.get(metrics));
            Thread.sleep(3000); // the sink polls every few hundred ms: a retry loop would show here
            assertEquals(after, failures(HttpText.get(metrics)), "no failure after recovery");
            assertEquals(0L, lag(HttpText.get(metrics)));
        } finally {
            processor.close();
            clickHouse.close();
        }
    }

    private static long lag(String metrics) {
        Matcher line = LAG.matcher(metrics);
        return line.find() ? Long.parseLong(line.group(1)) : -1;
    }

    /** The sum of sluice_sink_insert_failures_total over this test's tables. */
    private static long failures(String metrics) {
        return HttpText.sum(metrics, FAILURES);
    }
}
