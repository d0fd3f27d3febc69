package io.sluice.events;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.common.header.Headers;

/**
 * What Sluice keeps of an error report's JSON (besides the JSON itself), read the one way: by the
 * gateway, which sends it on in the {@link FieldsHeader}, and by the processor from the JSON when a
 * record has no such header. The reported exception and its top frame, or the message; reports
 * with only a message get an empty type. Reading an event differently here or in
 * {@link SentryFields} means raising {@link FieldsHeader#VERSION} (FieldsReadingTest says when).
 */
public record ErrorFields(
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
        String route,
        String release) {

    /** Without project rules (the processor's reading of a record without the gateway's header). */
    public static ErrorFields of(JsonNode event) {
        return of(event, RouteRules.NONE);
    }

    /** @param rules the project's route rules (the gateway has the project) */
    public static ErrorFields of(JsonNode event, RouteRules rules) {
        JsonNode exception = SentryFields.reportedException(event);
        String type = exception == null ? "" : SentryFields.text(exception, "/type");
        String value = exception == null ? SentryFields.message(event) : SentryFields.text(exception, "/value");
        String requestUrl = SentryFields.text(event, "/request/url");
        String requestMethod = SentryFields.text(event, "/request/method").toUpperCase(Locale.ROOT);
        return new ErrorFields(SentryFields.text(event, "/environment"), SentryFields.level(event),
                type, value, SentryFields.topFrame(exception), requestUrl, requestMethod,
                SentryFields.text(event, "/user/id"),
                SentryFields.text(event, "/sdk/name"), SentryFields.text(event, "/sdk/version"),
                SentryFields.text(event, "/contexts/runtime/name"), SentryFields.text(event, "/contexts/runtime/version"),
                SentryFields.text(event, "/contexts/os/name"), SentryFields.text(event, "/contexts/os/version"),
                Routes.of(event, requestMethod, SentryFields.text(event, "/transaction"), TransactionFields.pathOf(requestUrl), rules),
                SentryFields.release(event));
    }

    private static final int FIELDS = ErrorFields.class.getRecordComponents().length;

    /** As the {@link FieldsHeader}'s value, for an event of {@code jsonBytes}; null when they may take more than it carries. */
    public byte[] toHeader(int jsonBytes) {
        return FieldsHeader.encode(jsonBytes, FieldsHeader.ERROR, environment, level, exceptionType, exceptionValue, topFrame, requestUrl,
                requestMethod, userId, sdkName, sdkVersion, runtimeName, runtimeVersion, osName, osVersion, route, release);
    }

    /** From the record's {@link FieldsHeader}; null when it has none this version can read. */
    public static ErrorFields fromHeader(Headers headers) {
        String[] v = FieldsHeader.decode(headers, FieldsHeader.ERROR, FIELDS);
        return v == null ? null
                : new ErrorFields(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15]);
    }
}
