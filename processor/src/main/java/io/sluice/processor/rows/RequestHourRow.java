package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One row of {@code sluice.requests_1h}: as {@link RequestRow}, for an event-time hour ({@code hour} in
 * epoch seconds); the hour's own absolute counts, not a sum of minute rows. Its release as {@link RequestRow}'s.
 */
public record RequestHourRow(String project, String environment, long hour, String op, String route, String method,
                             int statusCode, long requests, long timed, double durationSumMs, long[] durationBuckets,
                             long version, double estimatedRequests,
                             @JsonInclude(JsonInclude.Include.NON_EMPTY) String release) implements AggregateRow {
    /** A row written before releases were counted has none: release ''. */
    public RequestHourRow {
        release = release == null ? "" : release;
    }

    public static RequestHourRow of(RequestKey key, long hourStartMillis, RequestCounts counts, int generation) {
        return new RequestHourRow(key.project(), key.environment(), hourStartMillis / 1000, key.op(), key.route(), key.method(),
                key.statusCode(), counts.requests(), counts.timed(), counts.durationSumMicros() / 1000.0,
                counts.durationBuckets(), Generations.version(generation, counts.requests()),
                Estimates.requests(counts.estimatedMillionths()), key.release());
    }

    @Override
    public String topicKey() {
        return release.isEmpty() ? KeyText.columns(project, environment, hour, op, route, method, statusCode)
                : KeyText.columns(project, environment, hour, op, route, method, statusCode, release);
    }
}
