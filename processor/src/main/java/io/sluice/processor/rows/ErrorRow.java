package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One row of {@code sluice.errors_1m}: the absolute count of one exception type in one project,
 * environment and minute ({@link WindowStart}). {@code version} is
 * {@code generation × 2^40 + count}, so the newest row wins in ReplacingMergeTree, a replayed row
 * changes nothing, and a recompute with a higher generation replaces earlier ones.
 */
public record ErrorRow(String project, String environment, @JsonUnwrapped WindowStart start, String exceptionType, long errors,
                       long version) implements AggregateRow {
    public static ErrorRow of(ErrorKey key, WindowStart start, long count, int generation) {
        return new ErrorRow(key.project(), key.environment(), start, key.exceptionType(), count, Generations.version(generation, count));
    }

    /** Its columns joined, as errors-1m's topic holds its rows ({@link KeyText#joined}). */
    @Override
    public String topicKey() {
        return KeyText.joined(project, environment, start.epochSecond(), exceptionType);
    }
}
