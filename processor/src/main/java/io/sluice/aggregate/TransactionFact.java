package io.sluice.aggregate;

/**
 * One accepted transaction as stored in the request history ({@code sluice.transactions}).
 * Field names are the table's column names. Times are epoch milliseconds.
 */
public record TransactionFact(
        String eventId,
        String project,
        long timestamp,
        long receivedAt,
        boolean timeAdjusted,
        String environment,
        String transaction,
        String method,
        String url,
        String path,
        Integer statusCode,
        String userId,
        String sdkName,
        String sdkVersion,
        String runtimeName,
        String runtimeVersion,
        String osName,
        String osVersion,
        int kafkaPartition,
        long kafkaOffset) implements Fact {
}
