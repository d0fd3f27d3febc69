package io.sluice.processor.rows;

/**
 * One accepted error report as stored in {@code sluice.errors}. Field names are the table's
 * column names; times are epoch milliseconds; {@code payload} is the JSON as the client sent it
 * (see {@link Columns#payload}). Every string is made to fit its column here ({@link Columns}).
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
        String payload,
        String route,
        String release) implements Fact {
    public ErrorFact {
        eventId = Columns.fit(eventId, Columns.UNLIMITED);
        project = Columns.fit(project, Columns.UNLIMITED);
        environment = Columns.fit(environment, Columns.ENVIRONMENT);
        level = Columns.fit(level, Columns.LEVEL);
        exceptionType = Columns.fit(exceptionType, Columns.EXCEPTION_TYPE);
        exceptionValue = Columns.fit(exceptionValue, Columns.EXCEPTION_VALUE);
        topFrame = Columns.fit(topFrame, Columns.TOP_FRAME);
        requestUrl = Columns.fit(requestUrl, Columns.URL);
        requestMethod = Columns.fit(requestMethod, Columns.METHOD);
        route = Columns.fit(route == null ? "" : route, Columns.TRANSACTION);
        release = Columns.fit(release == null ? "" : release, Columns.RELEASE); // none in a record written before it was kept
        userId = Columns.fit(userId, Columns.USER_ID);
        sdkName = Columns.fit(sdkName, Columns.NAME_OR_VERSION);
        sdkVersion = Columns.fit(sdkVersion, Columns.NAME_OR_VERSION);
        runtimeName = Columns.fit(runtimeName, Columns.NAME_OR_VERSION);
        runtimeVersion = Columns.fit(runtimeVersion, Columns.NAME_OR_VERSION);
        osName = Columns.fit(osName, Columns.NAME_OR_VERSION);
        osVersion = Columns.fit(osVersion, Columns.NAME_OR_VERSION);
        // Only made valid: its size is decided, whole or omitted, by Columns.payload.
        payload = Columns.fit(payload, Columns.UNLIMITED);
    }

    /** This error counted under another environment ({@code <other>} beyond a project's limit). */
    public ErrorFact withEnvironment(String otherEnvironment) {
        return new ErrorFact(eventId, project, timestamp, receivedAt, timeAdjusted, otherEnvironment, level, exceptionType,
                exceptionValue, topFrame, requestUrl, requestMethod, userId, sdkName, sdkVersion, runtimeName, runtimeVersion, osName,
                osVersion, kafkaPartition, kafkaOffset, payload, route, release);
    }

    /** This error counted under another exception type ({@code <other>} beyond a project's limit). */
    public ErrorFact withExceptionType(String otherType) {
        return new ErrorFact(eventId, project, timestamp, receivedAt, timeAdjusted, environment, level, otherType,
                exceptionValue, topFrame, requestUrl, requestMethod, userId, sdkName, sdkVersion, runtimeName, runtimeVersion, osName,
                osVersion, kafkaPartition, kafkaOffset, payload, route, release);
    }
}
