package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.sluice.config.Aggregate.Window;

/**
 * One row of {@code sluice.traffic_1m} or {@code sluice.traffic_1h}: absolute counts of a project,
 * environment and minute or hour ({@link WindowStart}; an hour's own counts, not a sum of minute
 * rows), and beside each count its estimate: the requests those stored stand for where clients
 * sampled them (the sum of {@code 1 / rate}; the count itself where nothing was sampled).
 * {@code version} is {@code generation × 2^40 + requests}: it grows with every update of the row (it is the request count), so
 * ClickHouse's ReplacingMergeTree keeps the newest and a replayed row changes nothing; a recompute
 * with a higher generation replaces every row of earlier generations.
 */
public record TrafficRow(String project, String environment, @JsonUnwrapped WindowStart start, long requests,
                         @JsonProperty("status_1xx") long status1xx,
                         @JsonProperty("status_2xx") long status2xx,
                         @JsonProperty("status_3xx") long status3xx,
                         @JsonProperty("status_4xx") long status4xx,
                         @JsonProperty("status_5xx") long status5xx,
                         long statusNone, long version, double estimatedRequests,
                         @JsonProperty("estimated_status_1xx") double estimated1xx,
                         @JsonProperty("estimated_status_2xx") double estimated2xx,
                         @JsonProperty("estimated_status_3xx") double estimated3xx,
                         @JsonProperty("estimated_status_4xx") double estimated4xx,
                         @JsonProperty("estimated_status_5xx") double estimated5xx,
                         @JsonProperty("estimated_status_none") double estimatedNone) implements AggregateRow {
    /** A row of requests none of which was sampled: each estimate is its count. */
    public TrafficRow(String project, String environment, WindowStart start, long requests, long status1xx, long status2xx,
                      long status3xx, long status4xx, long status5xx, long statusNone, long version) {
        this(project, environment, start, requests, status1xx, status2xx, status3xx, status4xx, status5xx, statusNone, version,
                requests, status1xx, status2xx, status3xx, status4xx, status5xx, statusNone);
    }

    public static TrafficRow of(TrafficKey key, WindowStart start, TrafficCounts counts, int generation) {
        return new TrafficRow(key.project(), key.environment(), start, counts.requests(),
                counts.status1xx(), counts.status2xx(), counts.status3xx(), counts.status4xx(), counts.status5xx(),
                counts.statusNone(), Generations.version(generation, counts.requests()),
                Estimates.requests(counts.estimatedRequests()), Estimates.requests(counts.estimated1xx()),
                Estimates.requests(counts.estimated2xx()), Estimates.requests(counts.estimated3xx()),
                Estimates.requests(counts.estimated4xx()), Estimates.requests(counts.estimated5xx()),
                Estimates.requests(counts.estimatedNone()));
    }

    /** A minute's row under its columns joined, as traffic-1m's topic holds its rows ({@link KeyText#joined}). */
    @Override
    public String topicKey() {
        return start.window() == Window.MINUTE ? KeyText.joined(project, environment, start.epochSecond())
                : KeyText.columns(project, environment, start.epochSecond());
    }
}
