package io.sluice.processor.rows;

/**
 * One row of {@code sluice.errors_1m}: the absolute count of one exception type in one project,
 * environment and minute ({@code minute} in epoch seconds). {@code version} is
 * {@code generation × 2^40 + count}, so the newest row wins in ReplacingMergeTree, a replayed row
 * changes nothing, and a recompute with a higher generation replaces earlier ones.
 */
public record ErrorRow(String project, String environment, long minute, String exceptionType, long errors, long version)
        implements AggregateRow {
    public static ErrorRow of(ErrorKey key, long minuteStartMillis, long count, int generation) {
        return new ErrorRow(key.project(), key.environment(), minuteStartMillis / 1000, key.exceptionType(), count,
                Generations.version(generation, count));
    }

    @Override
    public String topicKey() {
        return KeyText.joined(project, environment, minute, exceptionType);
    }
}
