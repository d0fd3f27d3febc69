package io.sluice.processor.parse;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.EventHeaders;
import io.sluice.events.SentryFields;

/** What every raw record carries in the gateway's headers; and its value read as the client's JSON object, when needed. */
record RawRecord(String eventId, String project, long eventTime, long receivedAt, boolean timeAdjusted) {
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(SentryFields.MAX_NESTING_DEPTH).build()).build());

    /** @throws UnprocessableRecordException when a header is missing or malformed */
    static RawRecord of(Headers headers, long recordTimestamp) {
        return new RawRecord(requiredHeader(headers, EventHeaders.EVENT_ID), requiredHeader(headers, EventHeaders.PROJECT),
                longHeader(headers, EventHeaders.EVENT_TIME, recordTimestamp),
                longHeader(headers, EventHeaders.RECEIVED_AT, recordTimestamp),
                "true".equals(EventHeaders.get(headers, EventHeaders.TIME_ADJUSTED)));
    }

    /** @throws UnprocessableRecordException when the value is not a JSON object */
    static JsonNode readObject(byte[] json) {
        try {
            JsonNode event = MAPPER.readTree(json);
            if (event == null || !event.isObject()) {
                throw new UnprocessableRecordException("value is not a JSON object");
            }
            return event;
        } catch (IOException e) {
            throw new UnprocessableRecordException("value is not valid JSON: " + e.getMessage());
        }
    }

    private static String requiredHeader(Headers headers, String name) {
        String value = EventHeaders.get(headers, name);
        if (value == null || value.isEmpty()) {
            throw new UnprocessableRecordException("header " + name + " is missing");
        }
        return value;
    }

    private static long longHeader(Headers headers, String name, long fallback) {
        String value = EventHeaders.get(headers, name);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UnprocessableRecordException("header " + name + " is not a number: " + value);
        }
    }
}
