package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One row of {@code sluice.requests_1m} or {@code sluice.requests_1h}: absolute counts of one
 * project, environment, minute or hour ({@link WindowStart}; an hour's own counts, not a sum of
 * minute rows), op, route, method, status code (0: none) and release, with the durations' sum and histogram.
 * A release of '' (none) is left out of the row's JSON (the column's default) and of its topic key,
 * so such a row has the key and JSON it had before releases were counted, and replaces the row written then.
 * {@code version} is {@code generation × 2^40 + requests}, as in {@link TrafficRow}: the newest row
 * wins, a replayed row changes nothing, a recompute with a higher generation replaces earlier ones.
 */
public record RequestRow(String project, String environment, @JsonUnwrapped WindowStart start, String op, String route, String method,
                         int statusCode, long requests, long timed, double durationSumMs, long[] durationBuckets,
                         long version, double estimatedRequests,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) String release) implements AggregateRow {
    /** A row written before releases were counted has none: release ''. */
    public RequestRow {
        release = release == null ? "" : release;
    }

    public static RequestRow of(RequestKey key, WindowStart start, RequestCounts counts, int generation) {
        return new RequestRow(key.project(), key.environment(), start, key.op(), key.route(), key.method(),
                key.statusCode(), counts.requests(), counts.timed(), counts.durationSumMicros() / 1000.0,
                counts.durationBuckets(), Generations.version(generation, counts.requests()),
                Estimates.requests(counts.estimatedMillionths()), key.release());
    }

    @Override
    public String topicKey() {
        return release.isEmpty() ? KeyText.columns(project, environment, start.epochSecond(), op, route, method, statusCode)
                : KeyText.columns(project, environment, start.epochSecond(), op, route, method, statusCode, release);
    }
}
