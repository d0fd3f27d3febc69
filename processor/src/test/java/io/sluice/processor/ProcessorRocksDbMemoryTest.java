package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.processor.state.BoundedRocksDbMemory;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.ProcessorTopology;

class ProcessorRocksDbMemoryTest {
    // An odd size no other test uses, so this budget's cache starts empty.
    private static final long BUDGET_BYTES = 96L * 1024 * 1024 + 4096;

    private static ProcessorConfig config(Path stateDir, Map<String, String> values) {
        return ProcessorConfig.from(new Settings(Map.of(ProcessorConfig.STATE_DIR.name(), stateDir.toString())).with(values));
    }

    @Test
    void streamsConfigNamesTheBoundedMemorySetterWithTheConfiguredBudget(@TempDir Path stateDir) {
        Properties props = ProcessorService.streamsProperties(config(stateDir, Map.of(
                ProcessorConfig.ROCKSDB_MEMORY_BYTES.name(), "134217728",
                ProcessorConfig.ROCKSDB_WRITE_BUFFER_RATIO.name(), "0.25")), new DeadLetterCounts());

        assertSame(BoundedRocksDbMemory.class, props.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG));
        assertEquals("134217728", props.get(BoundedRocksDbMemory.MEMORY_BYTES));
        assertEquals("0.25", props.get(BoundedRocksDbMemory.WRITE_BUFFER_RATIO));
    }

    @Test
    void theDefaultBudgetIs256MiBHalfForWriteBuffers(@TempDir Path stateDir) {
        ProcessorConfig config = config(stateDir, Map.of());
        assertEquals(256L * 1024 * 1024, config.rocksDbMemoryBytes());
        assertEquals(0.5, config.rocksDbWriteBufferRatio());
    }

    @Test
    void aWriteBufferRatioOfOneIsRefusedAtStartup(@TempDir Path stateDir) {
        assertThrows(IllegalArgumentException.class,
                () -> config(stateDir, Map.of(ProcessorConfig.ROCKSDB_WRITE_BUFFER_RATIO.name(), "1")));
    }

    @Test
    void theTopologysStoresChargeTheSharedCacheWhenTheyWrite(@TempDir Path stateDir) {
        ProcessorConfig config = config(stateDir, Map.of(ProcessorConfig.ROCKSDB_MEMORY_BYTES.name(), Long.toString(BUDGET_BYTES)));
        Properties props = ProcessorService.streamsProperties(config, new DeadLetterCounts());
        BoundedRocksDbMemory.Shared shared = BoundedRocksDbMemory.shared(
                BoundedRocksDbMemory.Budget.of(BUDGET_BYTES, config.rocksDbWriteBufferRatio()));
        assertEquals(0, shared.cache().getUsage());

        DeadLetterCounts counts = new DeadLetterCounts();
        try (TopologyTestDriver driver = new TopologyTestDriver(ProcessorTopology.build(config.kafka().topics(),
                config.eventTimeHorizon(), 0, config.lateMargin(), counts), props)) {
            var transactions = driver.createInputTopic(config.kafka().topics().transactions(), new StringSerializer(), new ByteArraySerializer());
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            for (int i = 0; i < 100; i++) {
                RecordHeaders headers = new RecordHeaders();
                EventHeaders.put(headers, EventHeaders.EVENT_ID, "event-" + i);
                EventHeaders.put(headers, EventHeaders.PROJECT, "shop");
                EventHeaders.put(headers, EventHeaders.EVENT_TIME, Long.toString(now.toEpochMilli()));
                EventHeaders.put(headers, EventHeaders.RECEIVED_AT, Long.toString(now.toEpochMilli()));
                transactions.pipeInput(new TestRecord<>("shop", "{\"transaction\": \"GET /\"}".getBytes(StandardCharsets.UTF_8), headers, now));
            }
            // The write buffer manager reserves memtable memory in the shared cache.
            assertTrue(shared.cache().getUsage() > 0, "usage " + shared.cache().getUsage());
        }
    }
}
