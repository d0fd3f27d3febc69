package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * Transactions a client kept at a rate of 0.25, spread over every raw partition and some retried:
 * the exact counts are the rows stored (N), the estimates exactly 4N, in every traffic aggregate.
 * Against the real broker and ClickHouse.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EstimatedTrafficIT {
    /** Generous: the machine is shared, and a first Streams transaction over fresh topics can take a minute. */
    private static final Duration ARRIVAL = Duration.ofSeconds(180);
    private static final Instant MINUTE = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10));
    /** Status by i % 2: 200, 503. */
    private static final int TRANSACTIONS = 120;
    private static final int PARTITIONS = 3;

    @TempDir
    static Path stateDir;

    static Engines engines;
    static ProcessorService processor;
    static String db;

    @BeforeAll
    static void sendSampledTransactions(Engines realEngines) throws Exception {
        engines = realEngines;
        Map<String, String> values = TestSettings.isolated("estimated", engines, stateDir).toMap();
        db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        processor = ProcessorService.start(config);
        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            for (int i = 0; i < TRANSACTIONS; i++) {
                int status = i % 2 == 0 ? 200 : 503;
                raw.spreadTransaction("estimated.transactions", PARTITIONS, "shop", "s" + i, MINUTE.plusMillis(i * 100L), status, 0.25);
                if (i % 4 == 0) { // a retry: counted once, estimated once
                    raw.spreadTransaction("estimated.transactions", PARTITIONS, "shop", "s" + i, MINUTE.plusSeconds(30), status, 0.25);
                }
            }
        }
        String settled = TRANSACTIONS + "\t" + TRANSACTIONS + "\t" + TRANSACTIONS + "\t" + TRANSACTIONS + "\t" + TRANSACTIONS;
        Await.until(ARRIVAL, settled, () -> query("SELECT (SELECT sum(requests) FROM " + db + ".traffic_1m FINAL), "
                + "(SELECT sum(requests) FROM " + db + ".traffic_1h FINAL), (SELECT sum(requests) FROM " + db + ".requests_1m FINAL), "
                + "(SELECT sum(requests) FROM " + db + ".requests_1h FINAL), (SELECT count() FROM " + db + ".transactions FINAL)"));
    }

    @AfterAll
    static void stop() {
        if (processor != null) {
            processor.close();
        }
    }

    @Test
    void trafficMinutesEstimateFourTimesTheStoredCountPerStatusClass() {
        assertEquals("120\t480\t60\t240\t60\t240", query("SELECT sum(requests), sum(estimated_requests), sum(status_2xx), "
                + "sum(estimated_status_2xx), sum(status_5xx), sum(estimated_status_5xx) FROM " + db + ".traffic_1m FINAL"));
    }

    @Test
    void trafficHoursEstimateFourTimesTheStoredCountPerStatusClass() {
        assertEquals("120\t480\t60\t240\t60\t240", query("SELECT sum(requests), sum(estimated_requests), sum(status_2xx), "
                + "sum(estimated_status_2xx), sum(status_5xx), sum(estimated_status_5xx) FROM " + db + ".traffic_1h FINAL"));
    }

    @Test
    void routeMinutesAndHoursEstimateFourTimesTheStoredCountPerStatusCode() {
        String perStatus = "200\t60\t240\n503\t60\t240";
        assertEquals(perStatus, query("SELECT status_code, sum(requests), sum(estimated_requests) FROM " + db
                + ".requests_1m FINAL GROUP BY status_code ORDER BY status_code"));
        assertEquals(perStatus, query("SELECT status_code, sum(requests), sum(estimated_requests) FROM " + db
                + ".requests_1h FINAL GROUP BY status_code ORDER BY status_code"));
    }

    @Test
    void eachHistoryRowKeepsItsRate() {
        assertEquals("120\t480", query("SELECT count(), sum(1 / sample_rate) FROM " + db + ".transactions FINAL"));
    }

    private static String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }
}
