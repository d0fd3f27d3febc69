package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One row of {@code sluice.sessions_1h}: the sessions of one project, environment and release that
 * started in one hour ({@link WindowStart}), by what they were counted as; {@code version}
 * as in {@link ErrorRow}, over all the counts.
 */
public record SessionHourRow(String project, String environment, String release, @JsonUnwrapped WindowStart start, long started,
                             long errored, long crashed, long abnormal, long exited, long version) implements AggregateRow {
    public static SessionHourRow of(SessionKey key, WindowStart start, SessionCounts counts, int generation) {
        return new SessionHourRow(key.project(), key.environment(), key.release(), start, counts.started(),
                counts.errored(), counts.crashed(), counts.abnormal(), counts.exited(), Generations.version(generation, counts.total()));
    }

    @Override
    public String topicKey() {
        return KeyText.columns(project, environment, release, start.epochSecond());
    }
}
