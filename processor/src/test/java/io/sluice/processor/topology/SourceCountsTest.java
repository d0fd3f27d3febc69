package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.processor.rows.TrafficCounts;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.rows.TransactionFact;

/** A source task's counting, seen from its context: what it schedules, sends and drops. */
class SourceCountsTest {
    private static final Counting<TransactionFact, TrafficKey, TrafficCounts> TRAFFIC = ProcessorTopology.TRAFFIC;
    private static final long MINUTE = Instant.parse("2026-11-22T10:15:00Z").toEpochMilli();
    private static final Duration GRACE = Duration.ofHours(26);
    private static final TrafficKey SHOP = new TrafficKey("shop", "production");
    private static final int SOURCE_PARTITION = 3;

    @TempDir
    Path stateDir;
    private MockProcessorContext<TrafficKey, CountUpdate<TrafficCounts>> context;
    private WindowStore<TrafficKey, TrafficCounts> counts;
    private KeyValueStore<KeyMinute<TrafficKey>, Long> unsent;
    private final LateEvents late = new LateEvents();
    private final SourceCounts<TransactionFact, TrafficKey, TrafficCounts> processor =
            new SourceCounts<>(TRAFFIC, GRACE, Duration.ofMillis(100), late);

    @BeforeEach
    void stores() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "source-counts-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        context = new MockProcessorContext<>(props, new TaskId(0, SOURCE_PARTITION), stateDir.toFile());
        context.setCurrentStreamTimeMs(0);
        counts = Stores.windowStoreBuilder(Stores.inMemoryWindowStore(TRAFFIC.sourceStore(), GRACE.plusMinutes(1),
                Duration.ofMinutes(1), false), TRAFFIC.keySerde(), TRAFFIC.tally().serde()).withLoggingDisabled().build();
        unsent = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TRAFFIC.unsentStore()),
                CountFormats.keyMinutes(TRAFFIC.keySerde()), Serdes.Long()).withLoggingDisabled().build();
        counts.init(context.getStateStoreContext(), counts);
        unsent.init(context.getStateStoreContext(), unsent);
        context.addStateStore(counts);
        context.addStateStore(unsent);
    }

    @Test
    void nothingIsScheduledWhileNothingIsUnsent() {
        processor.init(context);
        assertEquals(List.of(), context.scheduledPunctuators());
    }

    @Test
    void countedEventsScheduleOneSendOfTheSourcePartitionsAbsoluteCountWhichThenStops() {
        processor.init(context);
        for (int i = 0; i < 3; i++) {
            count(MINUTE + i * 1000, 200);
        }
        assertEquals(1, context.scheduledPunctuators().size());
        sendNow();
        var sent = context.forwarded();
        assertEquals(1, sent.size());
        assertEquals(SHOP, sent.get(0).record().key());
        assertEquals(new CountUpdate<>(SOURCE_PARTITION, TrafficCounts.NONE.add(200).add(200).add(200)), sent.get(0).record().value());
        assertEquals(MINUTE, sent.get(0).record().timestamp());
        assertTrue(context.scheduledPunctuators().get(0).cancelled(), "no punctuation (and so no commit) while idle");
        assertEquals(0, unsent.approximateNumEntries());
    }

    @Test
    void aMarkRestoredFromTheChangelogIsSentWithoutANewEvent() {
        // What a task finds after a restart between the transaction that counted and the one that would have sent.
        counts.put(SHOP, TrafficCounts.NONE.add(500), MINUTE);
        unsent.put(new KeyMinute<>(SHOP, MINUTE), MINUTE);
        processor.init(context);
        sendNow();
        assertEquals(new CountUpdate<>(SOURCE_PARTITION, TrafficCounts.NONE.add(500)), context.forwarded().get(0).record().value());
    }

    @Test
    void anEventPastItsMinutesGraceInItsSourcePartitionIsDroppedAndCounted() {
        processor.init(context);
        context.setCurrentStreamTimeMs(MINUTE + Duration.ofMinutes(1).plus(GRACE).toMillis());
        count(MINUTE + 59_000, 200);
        assertEquals(1, late.count());
        assertEquals(List.of(), context.scheduledPunctuators());
        assertEquals(null, counts.fetch(SHOP, MINUTE));
    }

    private void count(long eventTime, int status) {
        TransactionFact fact = new TransactionFact("id-" + eventTime, "shop", eventTime, eventTime, false, "production",
                "GET /", "GET", null, null, status, null, null, null, null, null, null, null, SOURCE_PARTITION, 0);
        context.setCurrentStreamTimeMs(Math.max(context.currentStreamTimeMs(), eventTime));
        processor.process(new Record<>("shop", fact, eventTime));
    }

    private void sendNow() {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(MINUTE);
    }
}
