package io.sluice.processor.rows;

/**
 * One row of {@code sluice.requests_1m}: absolute counts of one project, environment, minute (epoch
 * seconds), op, route, method and status code (0: none), with the durations' sum and histogram.
 * {@code version} is {@code generation × 2^40 + requests}, as in {@link TrafficRow}: the newest row
 * wins, a replayed row changes nothing, a recompute with a higher generation replaces earlier ones.
 */
public record RequestRow(String project, String environment, long minute, String op, String route, String method,
                         int statusCode, long requests, long timed, double durationSumMs, long[] durationBuckets,
                         long version, double estimatedRequests) implements AggregateRow {
    public static RequestRow of(RequestKey key, long minuteStartMillis, RequestCounts counts, int generation) {
        return new RequestRow(key.project(), key.environment(), minuteStartMillis / 1000, key.op(), key.route(), key.method(),
                key.statusCode(), counts.requests(), counts.timed(), counts.durationSumMicros() / 1000.0,
                counts.durationBuckets(), Generations.version(generation, counts.requests()),
                Estimates.requests(counts.estimatedMillionths()));
    }

    @Override
    public String topicKey() {
        return RowKeys.of(project, environment, minute, op, route, method, statusCode);
    }
}
