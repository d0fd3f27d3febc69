package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * An instance whose window stores were written under the former 10-minute late margin, restarted
 * with the 2-hour default on the same state directory, keeps using the same RocksDB segments: it
 * remembers the open minutes' counts and the ids already seen.
 */
@ExtendWith(RealEngines.class)
class LateMarginUpgradeIT {
    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void storesWrittenUnderTheFormerMarginKeepTheirSegmentsCountsAndIdsUnderTheNewDefault(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("marginupgrade", engines, stateDir).toMap();
        values.put(ProcessorConfig.LATE_MARGIN.name(), "10m");
        ProcessorConfig former = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(former.kafka());
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        String topic = former.kafka().topics().transactions();
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));

        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            try (ProcessorService processor = ProcessorService.start(former)) {
                raw.transaction(topic, "shop", "a", minute.plusSeconds(1), 200);
                raw.transaction(topic, "shop", "b", minute.plusSeconds(2), 200);
                assertEquals("2\t2", Await.until(Duration.ofSeconds(90), "2\t2", () -> RequestsAndRows.of(engines, db)));
            }
            Set<String> segmentsBefore = segments();
            assertEquals(true, segmentsBefore.stream().anyMatch(name -> name.startsWith("traffic-1m.")), segmentsBefore.toString());

            values.remove(ProcessorConfig.LATE_MARGIN.name()); // the new default, 2 h
            try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)))) {
                raw.transaction(topic, "shop", "a", minute.plusSeconds(3), 200); // a retry: seen before the upgrade
                raw.transaction(topic, "shop", "c", minute.plusSeconds(4), 200);
                assertEquals("3\t3", Await.until(Duration.ofSeconds(90), "3\t3", () -> RequestsAndRows.of(engines, db)));
            }
            assertEquals(segmentsBefore, segments());
        }
    }

    /** Names of the window stores' segment directories. */
    private Set<String> segments() throws Exception {
        try (Stream<Path> paths = Files.walk(stateDir)) {
            return paths.filter(Files::isDirectory).map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("(traffic-1m|errors-1m|seen-transactions|seen-errors)\\.\\d+"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
