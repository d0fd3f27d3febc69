package io.sluice.aggregate;

/**
 * One accepted error report as stored in {@code sluice.errors}. Field names are the table's
 * column names; times are epoch milliseconds; {@code payload} is the JSON as the client sent it.
 */
public record ErrorFact(
        String eventId,
        String project,
        long timestamp,
        long receivedAt,
        boolean timeAdjusted,
        String environment,
        String level,
        String exceptionType,
        String exceptionValue,
        String topFrame,
        String requestUrl,
        String requestMethod,
        String userId,
        String sdkName,
        String sdkVersion,
        String runtimeName,
        String runtimeVersion,
        String osName,
        String osVersion,
        int kafkaPartition,
        long kafkaOffset,
        String payload) implements Fact {
}
