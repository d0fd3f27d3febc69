package io.sluice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Kafka records and bytes written per event: every topic's growth (log end offsets, log sizes) over the events. */
class KafkaWritesTest {
    private static final KafkaWrites.Logs BEFORE = new KafkaWrites.Logs(
            Map.of("sluice.transactions", 1_000L, "sluice.history", 1_000L, "__transaction_state", 50L),
            Map.of("sluice.transactions", 600_000L, "sluice.history", 900_000L, "__transaction_state", 5_000L));
    private static final KafkaWrites.Logs AFTER = new KafkaWrites.Logs(
            Map.of("sluice.transactions", 3_000L, "sluice.history", 3_100L, "__transaction_state", 250L, "x-changelog", 2_000L),
            Map.of("sluice.transactions", 1_800_000L, "sluice.history", 2_300_000L, "__transaction_state", 25_000L,
                    "x-changelog", 100_000L));

    @Test
    void recordsWrittenPerEventAddUpEveryTopicsGrowthIncludingNewAndInternalTopics() {
        // 2,000 + 2,100 (history: 100 transaction markers) + 200 + 2,000 = 6,300 records for 2,000 events
        assertEquals(3.15, KafkaWrites.between(BEFORE, AFTER, 2_000).recordsPerEvent(), 1e-9);
    }

    @Test
    void bytesWrittenPerEventAddUpEveryTopicsLogGrowth() {
        // 1,200,000 + 1,400,000 + 20,000 + 100,000 = 2,720,000 bytes for 2,000 events
        assertEquals(1_360.0, KafkaWrites.between(BEFORE, AFTER, 2_000).bytesPerEvent(), 1e-9);
    }

    @Test
    void eachTopicsRecordsPerEventAreKept() {
        assertEquals(1.05, KafkaWrites.between(BEFORE, AFTER, 2_000).recordsPerEventByTopic().get("sluice.history"), 1e-9);
    }
}
