package io.sluice.processor;

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

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * A retry that reaches an instance which rebuilt its state from the changelog (a new pod, a lost
 * disk) is still counted once: the ids the restored store holds are in the first-sighting
 * filter before the first record is read.
 */
@ExtendWith(RealEngines.class)
class RetryAfterRestoreIT {
    @TempDir
    Path firstStateDir;
    @TempDir
    Path secondStateDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aRetryOfAnEventSeenBeforeTheStateWasRestoredIsCountedOnce(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("restoredretry", engines, firstStateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        String topic = config.kafka().topics().transactions();
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));

        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            try (ProcessorService processor = ProcessorService.start(config)) {
                raw.transaction(topic, "shop", "a", minute.plusSeconds(1), 200);
                raw.transaction(topic, "shop", "b", minute.plusSeconds(2), 200);
                assertEquals("2\t2", Await.until(Duration.ofSeconds(90), "2\t2", () -> RequestsAndRows.of(engines, db)));
            }
            values.put(ProcessorConfig.STATE_DIR.name(), secondStateDir.toString()); // nothing local: restored from Kafka
            try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)))) {
                raw.transaction(topic, "shop", "a", minute.plusSeconds(3), 200); // the client's retry
                raw.transaction(topic, "shop", "c", minute.plusSeconds(4), 200);
                assertEquals("3\t3", Await.until(Duration.ofSeconds(90), "3\t3", () -> RequestsAndRows.of(engines, db)));
                // The per-route minute and hour counts were restored too, and count the retry once.
                assertEquals("3\t3", Await.until(Duration.ofSeconds(30), "3\t3", () -> ClickHouseQuery.run(engines,
                        "SELECT (SELECT sum(requests) FROM " + db + ".requests_1m FINAL), (SELECT sum(requests) FROM " + db + ".requests_1h FINAL)")));
            }
        }
    }
}
