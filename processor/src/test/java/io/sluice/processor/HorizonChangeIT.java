package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.events.EventTime;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * An instance stopped cleanly and restarted on the same state directory with another
 * {@code SLUICE_EVENT_TIME_HORIZON} counts a retry of an event seen before the restart once, and
 * the minute's count goes on from where it was. The horizon sets the window stores' RocksDB
 * segment interval (a minute's count is kept in the segment named {@code start = n × interval});
 * with ordinary values Kafka Streams finds no committed offset in the renamed segments and restores
 * from the changelog anyway. The cases that break without the processor's own wipe are those where
 * a new segment name is that of an old segment: Streams trusts that segment's offset and reads the
 * minute from a segment that does not hold it. Here the new interval is half or twice the old.
 */
@ExtendWith(RealEngines.class)
class HorizonChangeIT {
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void afterLengtheningTheHorizonARetryIsCountedOnceAndTheMinuteKeepsItsCount(Engines engines) throws Exception {
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
        restartWithAnotherHorizon(engines, "horizonlonger", "24h", "48h", minute, minute);
    }

    /** 24 h → 48 h 1 min (2881m) doubles the counts' interval: the even old segments keep their names, the odd ones are not found. */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void afterLengtheningTheHorizonToTwiceTheSegmentIntervalTheMinuteKeepsItsCount(Engines engines) throws Exception {
        long interval = countsSegmentInterval(Duration.ofHours(24));
        long segment = (latestMinute().toEpochMilli() - Duration.ofHours(1).toMillis()) / interval;
        long odd = segment % 2 == 1 ? segment : segment - 1;
        Instant evenSegment = minuteOf(odd * interval - Duration.ofHours(1).toMillis());
        Instant oddSegment = minuteOf(odd * interval + Duration.ofHours(1).toMillis());
        restartWithAnotherHorizon(engines, "horizondoubled", "24h", "2881m", evenSegment, oddSegment);
    }

    /** 48 h 1 min (2881m) → 24 h halves the counts' interval: each old segment keeps its name and is read as its first half only. */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void afterShorteningTheHorizonToHalfTheSegmentIntervalTheMinuteKeepsItsCount(Engines engines) throws Exception {
        long interval = countsSegmentInterval(Duration.ofHours(48).plusMinutes(1));
        long half = countsSegmentInterval(Duration.ofHours(24));
        long segment = (latestMinute().toEpochMilli() - half - Duration.ofHours(1).toMillis()) / interval;
        Instant firstHalf = minuteOf(segment * interval + Duration.ofHours(1).toMillis());
        Instant secondHalf = minuteOf(segment * interval + half + Duration.ofHours(1).toMillis());
        restartWithAnotherHorizon(engines, "horizonhalved", "2881m", "24h", firstHalf, secondHalf);
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aRestartWithTheSameHorizonKeepsTheLocalState(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("horizonsame", engines, stateDir).toMap();
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        String topic = config.kafka().topics().transactions();
        Instant minute = latestMinute();

        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            try (ProcessorService processor = ProcessorService.start(config)) {
                raw.transaction(topic, "shop", "a", minute.plusSeconds(1), 200);
                assertEquals("1\t1", Await.until(Duration.ofSeconds(90), "1\t1", () -> RequestsAndRows.of(engines, db)));
            }
            List<Path> kept = new ArrayList<>();
            for (Path task : tasksHoldingSegments(config)) {
                kept.add(Files.createFile(task.resolve("kept-by-a-restart")));
            }
            assertFalse(kept.isEmpty(), "no task directory holds a segment under " + stateDir);

            try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)))) {
                raw.transaction(topic, "shop", "b", minute.plusSeconds(2), 200);
                assertEquals("2\t2", Await.until(Duration.ofSeconds(90), "2\t2", () -> RequestsAndRows.of(engines, db)));
            }
            assertEquals(kept, kept.stream().filter(Files::exists).toList(), "files left in the task directories by the restart");
        }
    }

    /** Event a at {@code first}, b at {@code second}; after the restart a retry of b and a new c in b's minute. */
    private void restartWithAnotherHorizon(Engines engines, String name, String before, String after, Instant first,
                                           Instant second) throws Exception {
        Map<String, String> values = TestSettings.isolated(name, engines, stateDir).toMap();
        values.put(EventTime.HORIZON.name(), before);
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        String db = values.get("SLUICE_CLICKHOUSE_DATABASE");
        String topic = config.kafka().topics().transactions();

        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            try (ProcessorService processor = ProcessorService.start(config)) {
                raw.transaction(topic, "shop", "a", first.plusSeconds(1), 200);
                raw.transaction(topic, "shop", "b", second.plusSeconds(2), 200);
                assertEquals("2\t2", Await.until(Duration.ofSeconds(90), "2\t2", () -> RequestsAndRows.of(engines, db)));
            }

            values.put(EventTime.HORIZON.name(), after); // same state directory, stopped cleanly: its offsets are trusted
            try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)))) {
                raw.transaction(topic, "shop", "b", second.plusSeconds(3), 200); // the client's retry
                raw.transaction(topic, "shop", "c", second.plusSeconds(4), 200);
                assertEquals("3\t3", Await.until(Duration.ofSeconds(90), "3\t3", () -> RequestsAndRows.of(engines, db)));
            }
        }
    }

    /** The counts stores' segment interval under {@code horizon}: half of a minute + horizon (WindowStores). */
    private static long countsSegmentInterval(Duration horizon) {
        return horizon.plus(MINUTE).toMillis() / 2;
    }

    private static Instant latestMinute() {
        return Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));
    }

    private static Instant minuteOf(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).truncatedTo(ChronoUnit.MINUTES);
    }

    /** Kafka Streams task directories (e.g. {@code 0_1}) whose stores hold a segment: the tasks with committed state. */
    private List<Path> tasksHoldingSegments(ProcessorConfig config) throws Exception {
        List<Path> tasks = new ArrayList<>();
        try (Stream<Path> paths = Files.list(stateDir.resolve(config.applicationId()))) {
            for (Path task : paths.filter(path -> path.getFileName().toString().matches("\\d+_\\d+")).sorted().toList()) {
                try (Stream<Path> inside = Files.walk(task)) {
                    if (inside.anyMatch(path -> path.getFileName().toString().matches("[a-z0-9-]+\\.\\d+"))) {
                        tasks.add(task);
                    }
                }
            }
        }
        return tasks;
    }
}
