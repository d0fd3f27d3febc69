package io.sluice.processor.parse;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.SentryFields;
import io.sluice.processor.rows.Columns;
import io.sluice.processor.rows.ErrorFact;

/**
 * Turns a raw error report into an {@link ErrorFact}. The reported exception is the last of
 * {@code exception.values} (Sentry lists chained exceptions oldest first), its top frame the last
 * frame of its stack trace (where it was raised). Reports with only a message get an empty type.
 */
public final class ErrorParser {
    private ErrorParser() {
    }

    public static ErrorFact parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        RawRecord raw = RawRecord.of(json, headers, recordTimestamp);
        JsonNode event = raw.event();
        JsonNode exception = lastException(event.get("exception"));
        String type = exception == null ? "" : SentryFields.text(exception, "/type");
        String value = exception == null ? "" : SentryFields.text(exception, "/value");
        if (exception == null) {
            value = message(event);
        }
        return new ErrorFact(raw.eventId(), raw.project(), raw.eventTime(), raw.receivedAt(), raw.timeAdjusted(),
                SentryFields.text(event, "/environment"), SentryFields.text(event, "/level").toLowerCase(Locale.ROOT),
                type, value, topFrame(exception),
                SentryFields.text(event, "/request/url"), SentryFields.text(event, "/request/method").toUpperCase(Locale.ROOT),
                SentryFields.text(event, "/user/id"),
                SentryFields.text(event, "/sdk/name"), SentryFields.text(event, "/sdk/version"),
                SentryFields.text(event, "/contexts/runtime/name"), SentryFields.text(event, "/contexts/runtime/version"),
                SentryFields.text(event, "/contexts/os/name"), SentryFields.text(event, "/contexts/os/version"),
                partition, offset, Columns.payload(json));
    }

    private static JsonNode lastException(JsonNode exception) {
        JsonNode values = exception != null && exception.isObject() ? exception.get("values") : exception;
        if (values == null || !values.isArray() || values.isEmpty()) {
            return null;
        }
        return values.get(values.size() - 1);
    }

    /** {@code function (file:line)} of the frame where the exception was raised, or "". */
    private static String topFrame(JsonNode exception) {
        if (exception == null) {
            return "";
        }
        JsonNode frames = SentryFields.at(exception, "/stacktrace/frames");
        if (!frames.isArray() || frames.isEmpty()) {
            return "";
        }
        JsonNode frame = frames.get(frames.size() - 1);
        String where = SentryFields.text(frame, "/filename");
        if (where.isEmpty()) {
            where = SentryFields.text(frame, "/module");
        }
        String line = SentryFields.text(frame, "/lineno");
        return SentryFields.text(frame, "/function") + " (" + where + (line.isEmpty() ? "" : ":" + line) + ")";
    }

    private static String message(JsonNode event) {
        JsonNode message = event.get("message");
        if (message != null && message.isTextual()) {
            return message.textValue();
        }
        for (String pointer : new String[] {"/message/formatted", "/message/message", "/logentry/formatted", "/logentry/message"}) {
            String text = SentryFields.text(event, pointer);
            if (!text.isEmpty()) {
                return text;
            }
        }
        return "";
    }
}
