package io.sluice.processor.rows;

/**
 * Versions of aggregate rows: the count within a generation, generations above all counts. A
 * processor recomputing aggregates from the raw topics (after a bug) runs with a higher
 * generation, so its rows replace the old ones in ClickHouse even where they count less.
 */
public final class Generations {
    /** Room for 2^40 (about 10^12) events per row and minute within one generation. */
    static final int COUNT_BITS = 40;

    private Generations() {
    }

    /**
     * A count beyond the room (a client's session aggregates can say anything up to u32 per field)
     * stops at its top, so it never spills into the generation: the row's later versions are equal,
     * and ClickHouse keeps the last written of equal versions.
     */
    public static long version(int generation, long count) {
        if (generation < 0 || generation >= (1 << (63 - COUNT_BITS))) {
            throw new IllegalArgumentException("generation must be 0 to " + ((1 << (63 - COUNT_BITS)) - 1) + ", got " + generation);
        }
        return ((long) generation << COUNT_BITS) | Math.min(count, (1L << COUNT_BITS) - 1);
    }
}
