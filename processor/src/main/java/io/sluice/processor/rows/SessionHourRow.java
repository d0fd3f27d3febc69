package io.sluice.processor.rows;

/**
 * One row of {@code sluice.sessions_1h}: the sessions of one project, environment and release that
 * started in one hour ({@code hour} in epoch seconds), by what they were counted as; {@code version}
 * as in {@link ErrorRow}, over all the counts.
 */
public record SessionHourRow(String project, String environment, String release, long hour, long started, long errored, long crashed,
                             long abnormal, long exited, long version) implements AggregateRow {
    public static SessionHourRow of(SessionKey key, long hourStartMillis, SessionCounts counts, int generation) {
        return new SessionHourRow(key.project(), key.environment(), key.release(), hourStartMillis / 1000, counts.started(),
                counts.errored(), counts.crashed(), counts.abnormal(), counts.exited(), Generations.version(generation, counts.total()));
    }

    @Override
    public String topicKey() {
        return KeyText.columns(project, environment, release, hour);
    }
}
