package io.sluice.processor.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

/**
 * The (project, event id)s of one task's first-sighting store as Bloom filters in memory, so the
 * usual case, an id never seen, is answered without reading the store: a lookup there opens a
 * RocksDB iterator in each of its three to four segments (about a fifth of a record's
 * stream-thread time, docs/notebook/performance-rounds.md). Never a false "not seen": it answers "maybe" to
 * everything until {@link #complete} (the restored ids are all in: {@link StoreScan}), the rest
 * are added as they are put, and a span's filter is forgotten only a span after the store has
 * dropped the segment. "Maybe seen" (a sighting, or a few percent of the others) is for the store
 * to settle: the store alone is exact.
 *
 * <p>One filter per span of receive time (the store's segment interval), sized from the span
 * before it; a full filter is followed by one twice as large. The memory is the instance's
 * {@link FilterMemory}: when it is spent the filter gives up, gives its memory back and answers
 * "maybe" to everything, and the store decides every record until a fresh filter replaces it
 * ({@link FirstSightingFilter}).
 */
final class SeenIdsFilter {
    /** At a filter's capacity; a span sized from a busier one before it has fewer. */
    static final double FALSE_POSITIVE_RATE = 0.01;
    static final long SMALLEST_CAPACITY = 65_536;
    /**
     * An id is hashed once, to 64 bits, for its lookup and its add, and each filter's probes come from
     * those bits ({@link IdBits}): a lookup asks every span's filter, and hashing the whole id in each
     * was a tenth of the stream threads' samples. Two ids of one hash are one id to the filters: a
     * "maybe" the store settles, at 2^-64.
     */
    private static final HashFunction ID_HASH = Hashing.murmur3_128();

    private final long spanMillis;
    private final long retentionMillis;
    private final FilterMemory memory;
    private final TreeMap<Long, List<Block>> bySpan = new TreeMap<>();
    private long latest = Long.MIN_VALUE;
    private boolean complete;
    private boolean givenUp;

    private static final class Block {
        final IdBits ids;
        final long capacity;
        final long bytes;
        long count;

        Block(long capacity, long bytes) {
            this.ids = new IdBits(capacity, FALSE_POSITIVE_RATE);
            this.capacity = capacity;
            this.bytes = bytes;
        }
    }

    /**
     * @param spanMillis the store's segment interval
     * @param retentionMillis the store's retention
     */
    SeenIdsFilter(long spanMillis, long retentionMillis, FilterMemory memory) {
        this.spanMillis = spanMillis;
        this.retentionMillis = retentionMillis;
        this.memory = memory;
    }

    /** False only for an id never added (or added a span longer ago than the store keeps it). */
    boolean mightContain(String id) {
        return mightContain(hashOf(id));
    }

    /** {@link #mightContain(String)} of the id of this {@link #hashOf hash}. */
    boolean mightContain(long idHash) {
        if (givenUp || !complete) {
            return true;
        }
        for (List<Block> blocks : bySpan.values()) {
            for (Block block : blocks) {
                if (block.ids.mightContain(idHash)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Adds an id the store holds under {@code receivedAt}; gives up instead when the memory is spent. */
    void add(String id, long receivedAt) {
        add(hashOf(id), receivedAt);
    }

    /** {@link #add(String, long)} of the id of this {@link #hashOf hash}. */
    void add(long idHash, long receivedAt) {
        if (givenUp) {
            return;
        }
        long span = Math.floorDiv(receivedAt, spanMillis);
        List<Block> blocks = bySpan.computeIfAbsent(span, s -> new ArrayList<>(1));
        Block last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
        if (last == null || last.count >= last.capacity) {
            last = newBlock(last == null ? firstCapacity(span) : last.capacity * 2);
            if (last == null) {
                giveUp();
                return;
            }
            blocks.add(last);
        }
        last.ids.put(idHash);
        last.count++;
        if (receivedAt > latest) {
            latest = receivedAt;
            forgetExpiredSpans();
        }
    }

    /** An id as the filters know it: a record's lookup and its add take it once. */
    static long hashOf(String id) {
        return ID_HASH.hashUnencodedChars(id).asLong();
    }

    /** Every id the store held when the task started has been added: "not seen" may be answered from now on. */
    void complete() {
        complete = true;
    }

    boolean gaveUp() {
        return givenUp;
    }

    long bytes() {
        return bySpan.values().stream().flatMap(List::stream).mapToLong(block -> block.bytes).sum();
    }

    /** Gives the memory back (the task closes). */
    void close() {
        bySpan.values().forEach(blocks -> blocks.forEach(block -> memory.giveBack(block.bytes)));
        bySpan.clear();
    }

    private void giveUp() {
        close();
        givenUp = true;
    }

    /** As many as the span before held (a quarter more), at least {@link #SMALLEST_CAPACITY}. */
    private long firstCapacity(long span) {
        Map.Entry<Long, List<Block>> before = bySpan.lowerEntry(span);
        long count = before == null ? 0 : before.getValue().stream().mapToLong(block -> block.count).sum();
        return Math.max(SMALLEST_CAPACITY, count + count / 4);
    }

    private Block newBlock(long capacity) {
        long bytes = bytesOf(capacity);
        return memory.take(bytes) ? new Block(capacity, bytes) : null;
    }

    /** What a Bloom filter of {@code capacity} ids at {@link #FALSE_POSITIVE_RATE} takes: its words and the array's header. */
    static long bytesOf(long capacity) {
        return ((IdBits.bitsFor(capacity, FALSE_POSITIVE_RATE) + 63) / 64 + 1) * Long.BYTES;
    }

    /**
     * The store drops a segment once all of it is older than its stream time less the retention;
     * a span's filter goes one span later, so it never forgets what the store can still return.
     * Its latest time may be ahead of the store's after a restart on local state (the store's
     * stream time starts again at its next put), but not of the newest id on disk, against which
     * the store last dropped segments.
     */
    private void forgetExpiredSpans() {
        long oldestKept = Math.floorDiv(latest - retentionMillis, spanMillis) - 1;
        while (!bySpan.isEmpty() && bySpan.firstKey() < oldestKept) {
            bySpan.pollFirstEntry().getValue().forEach(block -> memory.giveBack(block.bytes));
        }
    }
}
