package io.sluice.gateway;

/**
 * How many event loops serve connections. Each loop may hold, while it decodes and validates one
 * event, memory that no budget counts: the event's JSON tree (up to about 16 times the largest
 * event, see {@code EventValidator.MIN_BYTES_PER_TOKEN}) and its copies (a brotli decoder's ring
 * buffer is counted: {@code BodyDecoder} takes it from the request's in-flight reservation). So the
 * loops are one per CPU the JVM may use ({@link Runtime#availableProcessors()}, which counts a
 * container's CPU limit), but no more than half the heap holds at that cost each: a pod with no
 * CPU limit on a 64-core node does not run 64 loops in a 512 MiB heap.
 */
final class EventLoops {
    /** The JSON tree of the largest event, its decompressed copy and the event as published. */
    private static final int TREE_AND_COPIES_PER_EVENT_BYTE = 16 + 2;

    private EventLoops() {
    }

    /** What one loop may hold outside the budgets, with events of at most this size (decompressed). */
    static long heldPerLoop(int maxEventBytes) {
        return (long) TREE_AND_COPIES_PER_EVENT_BYTE * maxEventBytes;
    }

    /**
     * @param configured    {@code SLUICE_GATEWAY_IO_THREADS}: used as set when above 0
     * @param cpus          the CPUs the JVM may use
     * @param maxHeapBytes  the heap's limit ({@link Runtime#maxMemory()})
     * @param maxEventBytes the largest event, decompressed
     */
    static int count(int configured, int cpus, long maxHeapBytes, int maxEventBytes) {
        if (configured > 0) {
            return configured;
        }
        long heapAllows = maxHeapBytes / 2 / heldPerLoop(maxEventBytes);
        return (int) Math.max(1, Math.min(cpus, heapAllows));
    }
}
