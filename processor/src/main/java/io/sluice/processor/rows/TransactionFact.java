package io.sluice.processor.rows;

/**
 * One accepted transaction as stored in the request history ({@code sluice.transactions}).
 * Field names are the table's column names. Times are epoch milliseconds. Every string is made
 * to fit its column here ({@link Columns}), however the fact was built.
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
        long kafkaOffset,
        String route,
        String op,
        Double durationMs,
        double sampleRate,
        String release) implements Fact {
    public TransactionFact {
        eventId = Columns.fit(eventId, Columns.UNLIMITED);
        project = Columns.fit(project, Columns.UNLIMITED);
        environment = Columns.fit(environment, Columns.ENVIRONMENT);
        transaction = Columns.fit(transaction, Columns.TRANSACTION);
        method = Columns.fit(method, Columns.METHOD);
        url = Columns.fit(url, Columns.URL);
        path = Columns.fit(path, Columns.PATH);
        userId = Columns.fit(userId, Columns.USER_ID);
        sdkName = Columns.fit(sdkName, Columns.NAME_OR_VERSION);
        sdkVersion = Columns.fit(sdkVersion, Columns.NAME_OR_VERSION);
        runtimeName = Columns.fit(runtimeName, Columns.NAME_OR_VERSION);
        runtimeVersion = Columns.fit(runtimeVersion, Columns.NAME_OR_VERSION);
        osName = Columns.fit(osName, Columns.NAME_OR_VERSION);
        osVersion = Columns.fit(osVersion, Columns.NAME_OR_VERSION);
        route = Columns.fit(route == null ? "" : route, Columns.TRANSACTION);
        op = Columns.fit(HandledRequests.opOf(op), Columns.NAME_OR_VERSION);
        release = Columns.fit(release == null ? "" : release, Columns.RELEASE); // none in a record written before it was kept
    }

    /** This transaction counted under another environment ({@code <other>} beyond a project's limit). */
    public TransactionFact withEnvironment(String otherEnvironment) {
        return new TransactionFact(eventId, project, timestamp, receivedAt, timeAdjusted, otherEnvironment, transaction, method, url,
                path, statusCode, userId, sdkName, sdkVersion, runtimeName, runtimeVersion, osName, osVersion, kafkaPartition,
                kafkaOffset, route, op, durationMs, sampleRate, release);
    }

    /** This transaction counted under another release ({@code <other>} beyond a project's limit). */
    public TransactionFact withRelease(String otherRelease) {
        return new TransactionFact(eventId, project, timestamp, receivedAt, timeAdjusted, environment, transaction, method, url,
                path, statusCode, userId, sdkName, sdkVersion, runtimeName, runtimeVersion, osName, osVersion, kafkaPartition,
                kafkaOffset, route, op, durationMs, sampleRate, otherRelease);
    }
}
