package io.sluice.processor.topology;

/**
 * A Bloom filter over ids already hashed to 64 bits ({@link SeenIdsFilter#hashOf}), sized as
 * Guava's {@code BloomFilter} sizes one: its probes come from that hash and a mix of it, so a
 * lookup or an add hashes nothing again and allocates nothing, and its bits are a plain array,
 * as one stream thread alone reads and writes a task's filters.
 */
final class IdBits {
    private final long[] words;
    private final long bits;
    private final int probes;

    /** Room for {@code capacity} ids at {@code falsePositiveRate}. */
    IdBits(long capacity, double falsePositiveRate) {
        bits = bitsFor(capacity, falsePositiveRate);
        probes = (int) Math.max(1, Math.round((double) bits / capacity * Math.log(2)));
        words = new long[Math.toIntExact((bits + 63) / 64)];
    }

    /** The bits a filter of {@code capacity} ids at {@code falsePositiveRate} takes (Guava's optimal size). */
    static long bitsFor(long capacity, double falsePositiveRate) {
        return Math.max(64, (long) (-capacity * Math.log(falsePositiveRate) / (Math.log(2) * Math.log(2))));
    }

    boolean mightContain(long idHash) {
        long step = step(idHash);
        long probe = idHash;
        for (int i = 0; i < probes; i++) {
            long bit = (probe & Long.MAX_VALUE) % bits;
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
            probe += step;
        }
        return true;
    }

    void put(long idHash) {
        long step = step(idHash);
        long probe = idHash;
        for (int i = 0; i < probes; i++) {
            long bit = (probe & Long.MAX_VALUE) % bits;
            words[(int) (bit >>> 6)] |= 1L << bit;
            probe += step;
        }
    }

    /** The probes' stride (double hashing): the id's hash mixed again (SplitMix64's finalizer), odd. */
    private static long step(long idHash) {
        long z = idHash;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (z ^ (z >>> 31)) | 1;
    }
}
