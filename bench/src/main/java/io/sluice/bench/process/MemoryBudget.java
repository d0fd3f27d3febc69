package io.sluice.bench.process;

import io.sluice.config.Settings;
import io.sluice.processor.ProcessorConfig;

/**
 * What the processor's resident memory should stay under (MiB): the heap the bench gives it, RocksDB's
 * bounded memory ({@code SLUICE_PROCESSOR_ROCKSDB_MEMORY_BYTES}), and {@link #OVERHEAD_MB} for
 * the rest of a JVM (metaspace, code cache, thread stacks, GC structures, direct buffers, the
 * allocator's arenas), the ~200 MiB the README's sizing names.
 */
public record MemoryBudget(long heapMb, long rocksDbMb, long overheadMb) {
    static final long OVERHEAD_MB = 200;

    public static MemoryBudget processor(Settings settings) {
        return new MemoryBudget(ChildJvm.HEAP_MB, settings.getLong(ProcessorConfig.ROCKSDB_MEMORY_BYTES) / (1024 * 1024),
                OVERHEAD_MB);
    }

    public long totalMb() {
        return heapMb + rocksDbMb + overheadMb;
    }
}
