package io.sluice.processor.rows;

/**
 * One row of {@code sluice.requests_1h}: as {@link RequestRow}, for an event-time hour ({@code hour} in
 * epoch seconds); the hour's own absolute counts, not a sum of minute rows.
 */
public record RequestHourRow(String project, String environment, long hour, String op, String route, String method,
                             int statusCode, long requests, long timed, double durationSumMs, long[] durationBuckets,
                             long version, double estimatedRequests) implements AggregateRow {
    public static RequestHourRow of(RequestKey key, long hourStartMillis, RequestCounts counts, int generation) {
        return new RequestHourRow(key.project(), key.environment(), hourStartMillis / 1000, key.op(), key.route(), key.method(),
                key.statusCode(), counts.requests(), counts.timed(), counts.durationSumMicros() / 1000.0,
                counts.durationBuckets(), Generations.version(generation, counts.requests()),
                Estimates.requests(counts.estimatedMillionths()));
    }

    @Override
    public String topicKey() {
        return RowKeys.of(project, environment, hour, op, route, method, statusCode);
    }
}
