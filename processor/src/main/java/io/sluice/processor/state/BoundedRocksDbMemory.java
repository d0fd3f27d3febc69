package io.sluice.processor.state;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the off-heap memory of every RocksDB store of the processor (Kafka Streams' "bounded
 * memory usage" recipe): one LRU block cache shared by all stores of the JVM holds data, index and
 * filter blocks, and the memtables are counted against that same cache by a shared
 * WriteBufferManager. Without it each store (and each segment of a window store) gets its own
 * cache and memtables, so memory grows with the number of partitions.
 *
 * <p>Sized from two Streams properties (set by the processor from its settings): {@link #MEMORY_BYTES}
 * and {@link #WRITE_BUFFER_RATIO}. The shared objects live as long as the JVM: they are never
 * closed in {@link #close}, which Streams calls per store.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {
    public static final String MEMORY_BYTES = "sluice.rocksdb.memory.bytes";
    public static final String WRITE_BUFFER_RATIO = "sluice.rocksdb.write.buffer.ratio";

    /** Index and filter blocks stay cached ahead of data blocks: they are read on every lookup. */
    private static final double HIGH_PRIORITY_POOL_RATIO = 0.1;
    private static final long BLOCK_SIZE = 16 * 1024;
    /** Small memtables, two per store: the WriteBufferManager bounds their sum anyway. */
    private static final long MEMTABLE_BYTES = 8 * 1024 * 1024;
    private static final int MEMTABLES = 2;

    /** One per budget: processors of the same JVM with the same budget (the normal case) share it. */
    private static final Map<Budget, Shared> SHARED = new ConcurrentHashMap<>();

    static {
        RocksDB.loadLibrary(); // the cache may be made before any store has loaded the native library
    }

    /** Total bytes of the cache and the part of it memtables may use. */
    public record Budget(long totalBytes, long writeBufferBytes) {
        public Budget {
            if (totalBytes <= 0 || writeBufferBytes <= 0 || writeBufferBytes >= totalBytes) {
                throw new IllegalArgumentException("RocksDB memory " + totalBytes + " bytes, write buffers "
                        + writeBufferBytes + " bytes: both positive, write buffers less than the total");
            }
        }

        public static Budget of(long totalBytes, double writeBufferRatio) {
            if (!(writeBufferRatio > 0 && writeBufferRatio < 1)) {
                throw new IllegalArgumentException("RocksDB write buffer ratio " + writeBufferRatio + " is not between 0 and 1");
            }
            return new Budget(totalBytes, (long) (totalBytes * writeBufferRatio));
        }
    }

    /** The cache and write buffer manager every store of one budget uses. */
    public record Shared(Cache cache, WriteBufferManager writeBufferManager) {
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Budget budget = Budget.of(Long.parseLong(String.valueOf(configs.get(MEMORY_BYTES))),
                Double.parseDouble(String.valueOf(configs.get(WRITE_BUFFER_RATIO))));
        Shared shared = shared(budget);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(shared.cache());
        // Index and filter blocks in the cache too, so they count against the bound.
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        table.setBlockSize(BLOCK_SIZE);
        options.setTableFormatConfig(table);
        options.setWriteBufferManager(shared.writeBufferManager());
        options.setMaxWriteBufferNumber(MEMTABLES);
        options.setWriteBufferSize(Math.min(MEMTABLE_BYTES, budget.writeBufferBytes()));
    }

    @Override
    public void close(String storeName, Options options) {
        // Nothing per store: the cache and write buffer manager are shared by every store.
    }

    /** The shared objects of a budget, created once. */
    public static Shared shared(Budget budget) {
        return SHARED.computeIfAbsent(budget, b -> {
            // strictCapacityLimit=false: a full cache evicts rather than failing reads.
            LRUCache cache = new LRUCache(b.totalBytes(), -1, false, HIGH_PRIORITY_POOL_RATIO);
            return new Shared(cache, new WriteBufferManager(b.writeBufferBytes(), cache));
        });
    }
}
