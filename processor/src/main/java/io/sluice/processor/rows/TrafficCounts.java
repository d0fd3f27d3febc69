package io.sluice.processor.rows;

import io.sluice.events.SampleRate;

/**
 * Requests of one project, environment and minute, by status class, and what they stand for when
 * clients sampled them: each class's estimate in millionths of a request (the sum of each request's
 * {@link SampleRate#weightMillionths}, {@code 1 / rate}; a count × 10^6 when nothing was sampled).
 * Integers, so the sums are the same whatever the order of the additions. Immutable; {@link #add}
 * returns a new one.
 */
public record TrafficCounts(long requests, long status1xx, long status2xx, long status3xx, long status4xx,
                            long status5xx, long statusNone, long estimated1xx, long estimated2xx, long estimated3xx,
                            long estimated4xx, long estimated5xx, long estimatedNone) {
    public static final TrafficCounts NONE = new TrafficCounts(0, 0, 0, 0, 0, 0, 0);

    /** Counts of requests none of which was sampled: each stands for one. */
    public TrafficCounts(long requests, long status1xx, long status2xx, long status3xx, long status4xx, long status5xx,
                         long statusNone) {
        this(requests, status1xx, status2xx, status3xx, status4xx, status5xx, statusNone, Estimates.unsampled(status1xx),
                Estimates.unsampled(status2xx), Estimates.unsampled(status3xx), Estimates.unsampled(status4xx),
                Estimates.unsampled(status5xx), Estimates.unsampled(statusNone));
    }

    /** One request that was not sampled. */
    public TrafficCounts add(Integer statusCode) {
        return add(statusCode, SampleRate.MILLIONTHS);
    }

    /** One request that stands for {@code weightMillionths} / 10^6 requests. */
    public TrafficCounts add(Integer statusCode, long weightMillionths) {
        int c = statusCode == null ? 0 : statusCode / 100;
        long w = weightMillionths;
        return new TrafficCounts(requests + 1,
                status1xx + (c == 1 ? 1 : 0), status2xx + (c == 2 ? 1 : 0), status3xx + (c == 3 ? 1 : 0),
                status4xx + (c == 4 ? 1 : 0), status5xx + (c == 5 ? 1 : 0), statusNone + (c == 0 ? 1 : 0),
                c == 1 ? Saturating.sum(estimated1xx, w) : estimated1xx, c == 2 ? Saturating.sum(estimated2xx, w) : estimated2xx,
                c == 3 ? Saturating.sum(estimated3xx, w) : estimated3xx, c == 4 ? Saturating.sum(estimated4xx, w) : estimated4xx,
                c == 5 ? Saturating.sum(estimated5xx, w) : estimated5xx, c == 0 ? Saturating.sum(estimatedNone, w) : estimatedNone);
    }

    /** These counts and {@code other}'s: the partial sums of several tasks added into one minute's counts. */
    public TrafficCounts plus(TrafficCounts other) {
        return new TrafficCounts(requests + other.requests, status1xx + other.status1xx, status2xx + other.status2xx,
                status3xx + other.status3xx, status4xx + other.status4xx, status5xx + other.status5xx,
                statusNone + other.statusNone, Saturating.sum(estimated1xx, other.estimated1xx),
                Saturating.sum(estimated2xx, other.estimated2xx), Saturating.sum(estimated3xx, other.estimated3xx),
                Saturating.sum(estimated4xx, other.estimated4xx), Saturating.sum(estimated5xx, other.estimated5xx),
                Saturating.sum(estimatedNone, other.estimatedNone));
    }

    /** Every class's estimate, in millionths of a request. */
    public long estimatedRequests() {
        return Saturating.sum(Saturating.sum(Saturating.sum(estimated1xx, estimated2xx), Saturating.sum(estimated3xx, estimated4xx)),
                Saturating.sum(estimated5xx, estimatedNone));
    }

    /** The counts in the order they are stored: requests, then the classes 1xx to 5xx and none. */
    public long[] counts() {
        return new long[] {requests, status1xx, status2xx, status3xx, status4xx, status5xx, statusNone};
    }

    /** The estimates in the order of the classes in {@link #counts}. */
    public long[] estimates() {
        return new long[] {estimated1xx, estimated2xx, estimated3xx, estimated4xx, estimated5xx, estimatedNone};
    }
}
