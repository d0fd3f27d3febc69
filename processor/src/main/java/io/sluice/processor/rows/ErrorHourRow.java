package io.sluice.processor.rows;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One row of {@code sluice.errors_1h}: the absolute count of one exception type on one route in one
 * project, environment and event-time hour ({@link WindowStart}); {@code version} as in {@link ErrorRow}.
 */
public record ErrorHourRow(String project, String environment, @JsonUnwrapped WindowStart start, String route, String exceptionType,
                           long errors, long version) implements AggregateRow {
    public static ErrorHourRow of(ErrorRouteKey key, WindowStart start, long count, int generation) {
        return new ErrorHourRow(key.project(), key.environment(), start, key.route(), key.exceptionType(), count,
                Generations.version(generation, count));
    }

    @Override
    public String topicKey() {
        return KeyText.columns(project, environment, start.epochSecond(), route, exceptionType);
    }
}
