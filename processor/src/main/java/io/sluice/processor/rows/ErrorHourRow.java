package io.sluice.processor.rows;

/**
 * One row of {@code sluice.errors_1h}: the absolute count of one exception type on one route in one
 * project, environment and event-time hour ({@code hour} in epoch seconds); {@code version} as in
 * {@link ErrorRow}.
 */
public record ErrorHourRow(String project, String environment, long hour, String route, String exceptionType, long errors,
                           long version) implements AggregateRow {
    public static ErrorHourRow of(ErrorRouteKey key, long hourStartMillis, long count, int generation) {
        return new ErrorHourRow(key.project(), key.environment(), hourStartMillis / 1000, key.route(), key.exceptionType(), count,
                Generations.version(generation, count));
    }

    @Override
    public String topicKey() {
        return KeyText.columns(project, environment, hour, route, exceptionType);
    }
}
