package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One row of {@code sluice.traffic_1m}: absolute counts of a project, environment and minute.
 * {@code minute} is epoch seconds (the column is a DateTime). {@code version} is
 * {@code generation × 2^40 + requests}: it grows with every update of the row (it is the request count), so
 * ClickHouse's ReplacingMergeTree keeps the newest and a replayed row changes nothing; a recompute
 * with a higher generation replaces every row of earlier generations.
 */
public record TrafficRow(String project, String environment, long minute, long requests,
                         @JsonProperty("status_1xx") long status1xx,
                         @JsonProperty("status_2xx") long status2xx,
                         @JsonProperty("status_3xx") long status3xx,
                         @JsonProperty("status_4xx") long status4xx,
                         @JsonProperty("status_5xx") long status5xx,
                         long statusNone, long version) implements AggregateRow {
    public static TrafficRow of(TrafficKey key, long minuteStartMillis, TrafficCounts counts, int generation) {
        return new TrafficRow(key.project(), key.environment(), minuteStartMillis / 1000, counts.requests(),
                counts.status1xx(), counts.status2xx(), counts.status3xx(), counts.status4xx(), counts.status5xx(),
                counts.statusNone(), Generations.version(generation, counts.requests()));
    }

    @Override
    public String topicKey() {
        return RowKeys.joined(project, environment, minute);
    }
}
