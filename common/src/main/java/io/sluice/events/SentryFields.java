package io.sluice.events;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads fields of Sentry-style payloads that come in several shapes, the same way in the gateway
 * (which validates them) and the processor (which stores them). What it reads travels in
 * {@link FieldsHeader}: reading an event differently means raising its VERSION (FieldsReadingTest says when).
 */
public final class SentryFields {
    public static final String STATUS_TAG = "http.status_code";
    /**
     * How deep a payload's JSON may nest. Sentry events nest a few levels; far deeper JSON is an
     * attack on the parser. Gateway and processor read with the same limit, so the processor can
     * read every event the gateway accepted.
     */
    public static final int MAX_NESTING_DEPTH = 200;
    /** What an error report without any message is stored with (Sentry accepts such reports, as a Go SDK sends them). */
    public static final String NO_MESSAGE = "(no message)";
    /** Where an error report's message may be when {@code message} is not a string, in order of preference. */
    private static final String[] LOG_ENTRIES = {"message", "logentry"};
    /** The level of an error report that has none (Sentry's default for error events). */
    public static final String DEFAULT_LEVEL = "error";
    /** The top-level field that names an event's release ({@link #release}). */
    public static final String RELEASE = "release";
    /**
     * Compiled pointers by their text. Jackson compiles a pointer on every {@code at(String)};
     * the processor reads a dozen per record, and the set of pointers is the fixed few in code.
     */
    private static final Map<String, JsonPointer> POINTERS = new ConcurrentHashMap<>();

    private SentryFields() {
    }

    /**
     * The HTTP status of a transaction: {@code tags["http.status_code"]} (tags as an object or a
     * list of [key, value] pairs; the value a number or a numeric string), else
     * {@code contexts.response.status_code}, else {@code contexts.trace.data["http.response.status_code"]}.
     * Null when there is none.
     *
     * @throws InvalidFieldException when present but not an integer from 100 to 599
     */
    public static Integer statusCode(JsonNode event) {
        JsonNode status = tag(event, STATUS_TAG);
        String field = "tags." + STATUS_TAG;
        if (isAbsent(status)) {
            status = at(event, "/contexts/response/status_code");
            field = "contexts.response.status_code";
        }
        if (isAbsent(status)) {
            status = at(event, "/contexts/trace/data/http.response.status_code"); // OpenTelemetry-style SDKs
            field = "contexts.trace.data.http.response.status_code";
        }
        if (isAbsent(status)) {
            return null;
        }
        int code;
        if (status.isIntegralNumber() && status.canConvertToInt()) {
            code = status.intValue();
        } else if (status.isTextual() && isSmallNumber(status.textValue().strip())) {
            code = Integer.parseInt(status.textValue().strip());
        } else {
            throw new InvalidFieldException(field,
                    "the HTTP status code must be an integer from 100 to 599, got " + abbreviate(status));
        }
        if (code < 100 || code > 599) {
            throw new InvalidFieldException(field, "the HTTP status code must be from 100 to 599, got " + code);
        }
        return code;
    }

    /** A tag's value, from {@code tags} as an object or as a list of [key, value] pairs; null if absent. */
    public static JsonNode tag(JsonNode event, String name) {
        JsonNode tags = event.get("tags");
        if (tags == null) {
            return null;
        }
        if (tags.isObject()) {
            return tags.get(name);
        }
        JsonNode found = null;
        if (tags.isArray()) {
            for (JsonNode pair : tags) {
                if (pair.isArray() && pair.size() == 2 && name.equals(pair.get(0).asText(null))) {
                    found = pair.get(1);
                }
            }
        }
        return found;
    }

    /**
     * The exceptions of an error report, oldest first (a chained exception's cause before it):
     * {@code exception.values}, or {@code exception} itself when it is a bare list. Null when
     * there is no non-empty list.
     */
    public static JsonNode exceptions(JsonNode event) {
        JsonNode exception = event.get("exception");
        JsonNode values = exception != null && exception.isObject() ? exception.get("values") : exception;
        return values != null && values.isArray() && !values.isEmpty() ? values : null;
    }

    /** The exception an error report is about: the last of {@link #exceptions}; null when there is none. */
    public static JsonNode reportedException(JsonNode event) {
        JsonNode values = exceptions(event);
        return values == null ? null : values.get(values.size() - 1);
    }

    /** {@code function (file:line)} of the frame where the exception was raised, the last of its stack trace; "" when none. */
    public static String topFrame(JsonNode exception) {
        if (exception == null) {
            return "";
        }
        JsonNode frames = at(exception, "/stacktrace/frames");
        if (!frames.isArray() || frames.isEmpty()) {
            return "";
        }
        JsonNode frame = frames.get(frames.size() - 1);
        String where = text(frame, "/filename");
        if (where.isEmpty()) {
            where = text(frame, "/module");
        }
        String line = text(frame, "/lineno");
        return text(frame, "/function") + " (" + where + (line.isEmpty() ? "" : ":" + line) + ")";
    }

    /**
     * An error report's message: {@code message} when it is a non-blank string, else the first
     * non-empty of {@code message.formatted}, {@code message.message}, {@code logentry.formatted}
     * and {@code logentry.message}; {@link #NO_MESSAGE} when there is none. A {@code message} of
     * an object with {@code params} and no {@code formatted} is formatted with them as Sentry does
     * ({@link LogEntryFormat}: {@code "second %s"} and {@code ["arg1"]} is {@code second arg1}).
     */
    public static String message(JsonNode event) {
        JsonNode message = event.get("message");
        if (message != null && message.isTextual() && !message.textValue().isBlank()) {
            return message.textValue();
        }
        for (String entry : LOG_ENTRIES) {
            JsonNode logEntry = event.get(entry);
            if (logEntry == null || !logEntry.isObject()) {
                continue;
            }
            String formatted = text(logEntry, "/formatted");
            if (!formatted.isEmpty()) {
                return formatted;
            }
            String raw = text(logEntry, "/message");
            if (!raw.isEmpty()) {
                String withParams = LogEntryFormat.format(raw, logEntry.get("params"));
                return withParams != null ? withParams : raw;
            }
        }
        return NO_MESSAGE;
    }

    /** An error report's level, lower case: {@code error} when it has none, as Sentry stores it (its default for error events). */
    public static String level(JsonNode event) {
        String level = text(event, "/level").toLowerCase(Locale.ROOT);
        return level.isEmpty() ? DEFAULT_LEVEL : level;
    }

    /**
     * The release (version) of the application that sent the event: its top-level {@code release},
     * where Sentry's SDKs put it and where the gateway puts an envelope's {@code trace.release}, an
     * OpenTelemetry resource's {@code service.version} and the v1 bodies' own; "" when it has none.
     */
    public static String release(JsonNode event) {
        return text(event, "/" + RELEASE);
    }

    /** One to three ASCII digits. */
    private static boolean isSmallNumber(String text) {
        if (text.isEmpty() || text.length() > 3) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The node at a JSON pointer (a missing node when absent), the pointer compiled once. */
    public static JsonNode at(JsonNode node, String pointer) {
        return node.at(POINTERS.computeIfAbsent(pointer, JsonPointer::compile));
    }

    /** A string at a JSON pointer, or "" when absent; numbers become their text (user ids often are). */
    public static String text(JsonNode event, String pointer) {
        JsonNode node = at(event, pointer);
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isNumber() || node.isBoolean()) {
            return node.asText();
        }
        return "";
    }

    /**
     * How long a transaction took, in milliseconds, from its {@code start_timestamp} to its
     * {@code timestamp} (epoch seconds or RFC 3339 text, as Sentry SDKs send them); null when
     * either is missing or unreadable, or the end is before the start.
     */
    public static Double durationMs(JsonNode event) {
        Double start = epochSeconds(event.get("start_timestamp"));
        Double end = epochSeconds(event.get("timestamp"));
        if (start == null || end == null || end < start) {
            return null;
        }
        double millis = (end - start) * 1000.0;
        return Double.isFinite(millis) ? Math.round(millis * 1000.0) / 1000.0 : null;
    }

    private static Double epochSeconds(JsonNode value) {
        if (isAbsent(value)) {
            return null;
        }
        if (value.isNumber()) {
            double seconds = value.doubleValue();
            return Double.isFinite(seconds) ? seconds : null;
        }
        if (value.isTextual()) {
            // The validator's reading: java.time's general parser cost a tenth of a transaction's event-loop time.
            double seconds = IsoTimestamps.epochSeconds(value.textValue().strip());
            return Double.isNaN(seconds) ? null : seconds;
        }
        return null;
    }

    public static boolean isAbsent(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode();
    }

    public static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
