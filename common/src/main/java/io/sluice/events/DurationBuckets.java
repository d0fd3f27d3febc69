package io.sluice.events;

/**
 * The fixed histogram that request durations are counted in, in every per-route aggregate
 * ({@code requests_1m}, {@code requests_1h}): bucket {@code i} holds durations up to
 * {@link #upperBoundMs(int) 2^((i - 2) / 2) ms} (0.5 ms, 0.71 ms, 1 ms, 1.41 ms, … 262 s), the last
 * one everything longer. Histograms of rows add up bucket by bucket, so a percentile over any
 * range and any grouping is read from the summed buckets, within one bucket's width (±19%).
 * Fixed, not per-row digests: a row is an absolute count that replaces its earlier copies, and
 * two histograms of the same requests are always equal.
 */
public final class DurationBuckets {
    /** How many buckets every histogram has; the last one is open-ended. */
    public static final int COUNT = 40;

    private DurationBuckets() {
    }

    /** The bucket a duration of {@code millis} falls in. */
    public static int of(double millis) {
        if (!(millis > upperBoundMs(0))) {
            return 0; // also NaN, which no reader produces
        }
        int i = (int) Math.ceil(2 * (Math.log(millis) / Math.log(2)) + 2);
        while (i > 0 && millis <= upperBoundMs(i - 1)) {
            i--; // the logarithm's rounding, at the bounds
        }
        while (i < COUNT - 1 && millis > upperBoundMs(i)) {
            i++;
        }
        return Math.min(i, COUNT - 1);
    }

    /** The upper bound of bucket {@code i}, in milliseconds; the last bucket's is infinite. */
    public static double upperBoundMs(int i) {
        return i >= COUNT - 1 ? Double.POSITIVE_INFINITY : Math.pow(2, (i - 2) / 2.0);
    }

    /**
     * The bounds as a ClickHouse array literal, for queries that read a percentile from summed
     * buckets: {@code bounds[arrayFirstIndex(c -> c >= q * total, arrayCumSum(buckets))]}; the
     * open-ended bucket reads as the last finite bound.
     */
    public static String clickHouseBounds() {
        StringBuilder sql = new StringBuilder("[");
        for (int i = 0; i < COUNT; i++) {
            double bound = upperBoundMs(Math.min(i, COUNT - 2));
            sql.append(i == 0 ? "" : ",").append(Math.round(bound * 1000) / 1000.0);
        }
        return sql.append(']').toString();
    }
}
