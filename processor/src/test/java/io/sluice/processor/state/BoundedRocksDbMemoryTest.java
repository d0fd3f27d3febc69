package io.sluice.processor.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.junit.jupiter.api.Test;
import org.rocksdb.Options;

class BoundedRocksDbMemoryTest {
    private static final long TOTAL = 64L * 1024 * 1024;
    private static final Map<String, Object> CONFIGS = Map.of(
            BoundedRocksDbMemory.MEMORY_BYTES, Long.toString(TOTAL), BoundedRocksDbMemory.WRITE_BUFFER_RATIO, "0.25");

    /** What Kafka Streams' RocksDBStore hands the setter: options whose table config exposes its cache. */
    private static Options storeOptions() {
        Options options = new Options();
        options.setTableFormatConfig(new BlockBasedTableConfigWithAccessibleCache());
        return options;
    }

    @Test
    void everyStoreGetsTheSameSharedBlockCacheAndWriteBufferManager() {
        try (Options first = storeOptions(); Options second = storeOptions()) {
            BoundedRocksDbMemory setter = new BoundedRocksDbMemory();
            setter.setConfig("dedup", first, CONFIGS);
            setter.setConfig("traffic-1m", second, CONFIGS);

            BoundedRocksDbMemory.Shared shared = BoundedRocksDbMemory.shared(BoundedRocksDbMemory.Budget.of(TOTAL, 0.25));
            assertSame(shared.cache(), ((BlockBasedTableConfigWithAccessibleCache) first.tableFormatConfig()).blockCache());
            assertSame(shared.cache(), ((BlockBasedTableConfigWithAccessibleCache) second.tableFormatConfig()).blockCache());
            assertSame(shared.writeBufferManager(), first.writeBufferManager());
            assertSame(shared.writeBufferManager(), second.writeBufferManager());
        }
    }

    @Test
    void indexAndFilterBlocksAreChargedToTheCache() {
        try (Options options = storeOptions()) {
            new BoundedRocksDbMemory().setConfig("dedup", options, CONFIGS);
            BlockBasedTableConfigWithAccessibleCache table = (BlockBasedTableConfigWithAccessibleCache) options.tableFormatConfig();
            assertTrue(table.cacheIndexAndFilterBlocks());
            assertTrue(table.cacheIndexAndFilterBlocksWithHighPriority());
            assertTrue(table.pinTopLevelIndexAndFilter());
        }
    }

    @Test
    void memtablesAreSmallAndFew() {
        try (Options options = storeOptions()) {
            new BoundedRocksDbMemory().setConfig("dedup", options, CONFIGS);
            assertEquals(8L * 1024 * 1024, options.writeBufferSize());
            assertEquals(2, options.maxWriteBufferNumber());
        }
    }

    @Test
    void writeBufferShareIsTheRatioOfTheTotal() {
        assertEquals(new BoundedRocksDbMemory.Budget(TOTAL, 16L * 1024 * 1024), BoundedRocksDbMemory.Budget.of(TOTAL, 0.25));
    }

    @Test
    void aRatioOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> BoundedRocksDbMemory.Budget.of(TOTAL, 1.0));
        assertThrows(IllegalArgumentException.class, () -> BoundedRocksDbMemory.Budget.of(TOTAL, 0));
    }

    @Test
    void closingAStoreLeavesTheSharedCacheUsable() {
        BoundedRocksDbMemory.Shared shared = BoundedRocksDbMemory.shared(BoundedRocksDbMemory.Budget.of(TOTAL, 0.25));
        try (Options options = storeOptions()) {
            BoundedRocksDbMemory setter = new BoundedRocksDbMemory();
            setter.setConfig("dedup", options, CONFIGS);
            setter.close("dedup", options);
        }
        assertTrue(shared.cache().isOwningHandle());
        assertTrue(shared.writeBufferManager().isOwningHandle());
    }
}
