package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One row of {@code sluice.traffic_1h}: as {@link TrafficRow}, for an event-time hour ({@code hour} in
 * epoch seconds); the hour's own absolute counts, not a sum of minute rows, versioned the same way.
 */
public record TrafficHourRow(String project, String environment, long hour, long requests,
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
    public static TrafficHourRow of(TrafficKey key, long hourStartMillis, TrafficCounts counts, int generation) {
        return new TrafficHourRow(key.project(), key.environment(), hourStartMillis / 1000, counts.requests(),
                counts.status1xx(), counts.status2xx(), counts.status3xx(), counts.status4xx(), counts.status5xx(),
                counts.statusNone(), Generations.version(generation, counts.requests()),
                Estimates.requests(counts.estimatedRequests()), Estimates.requests(counts.estimated1xx()),
                Estimates.requests(counts.estimated2xx()), Estimates.requests(counts.estimated3xx()),
                Estimates.requests(counts.estimated4xx()), Estimates.requests(counts.estimated5xx()),
                Estimates.requests(counts.estimatedNone()));
    }

    @Override
    public String topicKey() {
        return KeyText.columns(project, environment, hour);
    }
}
