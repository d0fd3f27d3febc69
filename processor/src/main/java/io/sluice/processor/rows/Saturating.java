package io.sluice.processor.rows;

/** Sums of non-negative longs that stop at {@link Long#MAX_VALUE} instead of wrapping negative, the same in any order. */
final class Saturating {
    private Saturating() {
    }

    static long sum(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
