package io.sluice.processor.rows;

import java.util.Arrays;

import io.sluice.events.DurationBuckets;
import io.sluice.events.SampleRate;

/**
 * Requests of one key and minute (or hour) with their durations: how many, how many had a
 * duration ({@code timed}), the durations' sum in microseconds (an integer, so the sum is the
 * same whatever the order of the additions) and their histogram ({@link DurationBuckets}).
 * {@code estimatedMillionths}: what the requests stand for when clients sampled them, in millionths
 * of a request (as {@link TrafficCounts}'s estimates). Immutable; {@link #add} returns a new one.
 */
public record RequestCounts(long requests, long timed, long durationSumMicros, long[] durationBuckets,
                            long estimatedMillionths) {
    public static final RequestCounts NONE = new RequestCounts(0, 0, 0, new long[DurationBuckets.COUNT]);
    /**
     * The most one request adds to the sum: 30 days. A client sets both timestamps, so a hostile one
     * could send a duration of 10^300 ms; capped, and the sum saturating, no row's sum ever wraps
     * negative, and the sum stays independent of the order of the additions.
     */
    static final long MAX_DURATION_MICROS = 30L * 24 * 3600 * 1_000_000;

    /** Counts of requests none of which was sampled. */
    public RequestCounts(long requests, long timed, long durationSumMicros, long[] durationBuckets) {
        this(requests, timed, durationSumMicros, durationBuckets, Estimates.unsampled(requests));
    }

    public RequestCounts {
        if (durationBuckets.length != DurationBuckets.COUNT) {
            throw new IllegalArgumentException("a histogram has " + DurationBuckets.COUNT + " buckets, not " + durationBuckets.length);
        }
    }

    /** One request that was not sampled. @param durationMs the request's duration, negative for none */
    public RequestCounts add(double durationMs) {
        return add(durationMs, SampleRate.MILLIONTHS);
    }

    /** One request that stands for {@code weightMillionths} / 10^6 requests. @param durationMs as {@link #add(double)}'s */
    public RequestCounts add(double durationMs, long weightMillionths) {
        long estimated = Saturating.sum(estimatedMillionths, weightMillionths);
        if (!(durationMs >= 0)) {
            return new RequestCounts(requests + 1, timed, durationSumMicros, durationBuckets, estimated);
        }
        long[] buckets = durationBuckets.clone();
        buckets[DurationBuckets.of(durationMs)]++;
        long micros = Math.min(MAX_DURATION_MICROS, Math.round(durationMs * 1000));
        return new RequestCounts(requests + 1, timed + 1, Saturating.sum(durationSumMicros, micros), buckets, estimated);
    }

    /**
     * These counts and {@code other}'s: the partial sums of several tasks added into one window's
     * counts. The same as adding their requests one by one: the sum saturates the same way.
     */
    public RequestCounts plus(RequestCounts other) {
        long[] buckets = durationBuckets.clone();
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] += other.durationBuckets[i];
        }
        return new RequestCounts(requests + other.requests, timed + other.timed,
                Saturating.sum(durationSumMicros, other.durationSumMicros), buckets,
                Saturating.sum(estimatedMillionths, other.estimatedMillionths));
    }

    @Override
    public long[] durationBuckets() {
        return durationBuckets.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestCounts that && requests == that.requests && timed == that.timed
                && durationSumMicros == that.durationSumMicros && Arrays.equals(durationBuckets, that.durationBuckets)
                && estimatedMillionths == that.estimatedMillionths;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(requests) * 31 + Arrays.hashCode(durationBuckets);
    }

    @Override
    public String toString() {
        return "RequestCounts[requests=" + requests + ", timed=" + timed + ", durationSumMicros=" + durationSumMicros
                + ", durationBuckets=" + Arrays.toString(durationBuckets) + ", estimatedMillionths=" + estimatedMillionths + "]";
    }
}
