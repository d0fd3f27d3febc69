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

    public static long version(int generation, long count) {
        if (generation < 0 || generation >= (1 << (63 - COUNT_BITS))) {
            throw new IllegalArgumentException("generation must be 0 to " + ((1 << (63 - COUNT_BITS)) - 1) + ", got " + generation);
        }
        return ((long) generation << COUNT_BITS) | count;
    }
}
