package io.sluice.processor.parse;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.SentryFields;
import io.sluice.processor.rows.Columns;
import io.sluice.processor.rows.ErrorFact;

/**
 * Turns a raw error report into an {@link ErrorFact}: its reported exception and top frame, or its
 * message, as {@link SentryFields} reads them. Reports with only a message get an empty type.
 */
public final class ErrorParser {
    private ErrorParser() {
    }

    public static ErrorFact parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        RawRecord raw = RawRecord.of(json, headers, recordTimestamp);
        JsonNode event = raw.event();
        JsonNode exception = SentryFields.reportedException(event);
        String type = exception == null ? "" : SentryFields.text(exception, "/type");
        String value = exception == null ? SentryFields.message(event) : SentryFields.text(exception, "/value");
        return new ErrorFact(raw.eventId(), raw.project(), raw.eventTime(), raw.receivedAt(), raw.timeAdjusted(),
                SentryFields.text(event, "/environment"), SentryFields.text(event, "/level").toLowerCase(Locale.ROOT),
                type, value, SentryFields.topFrame(exception),
                SentryFields.text(event, "/request/url"), SentryFields.text(event, "/request/method").toUpperCase(Locale.ROOT),
                SentryFields.text(event, "/user/id"),
                SentryFields.text(event, "/sdk/name"), SentryFields.text(event, "/sdk/version"),
                SentryFields.text(event, "/contexts/runtime/name"), SentryFields.text(event, "/contexts/runtime/version"),
                SentryFields.text(event, "/contexts/os/name"), SentryFields.text(event, "/contexts/os/version"),
                partition, offset, Columns.payload(json));
    }
}
