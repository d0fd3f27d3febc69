package io.sluice.aggregate;

/**
 * One row of {@code sluice.errors_1m}: the absolute count of one exception type in one project,
 * environment and minute ({@code minute} in epoch seconds). {@code version} is the count, so the
 * newest row wins in ReplacingMergeTree and a replayed row changes nothing.
 */
public record ErrorRow(String project, String environment, long minute, String exceptionType, long errors, long version) {
    public static ErrorRow of(ErrorKey key, long minuteStartMillis, long count) {
        return new ErrorRow(key.project(), key.environment(), minuteStartMillis / 1000, key.exceptionType(), count, count);
    }
}
