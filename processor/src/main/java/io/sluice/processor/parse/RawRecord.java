package io.sluice.processor.parse;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.EventHeaders;
import io.sluice.events.PrunedEventReader;

/** What every raw record carries: the gateway's headers and the client's JSON object. */
record RawRecord(String eventId, String project, long eventTime, long receivedAt, boolean timeAdjusted, JsonNode event) {
    private static final ObjectMapper MAPPER = PrunedEventReader.FULL;

    /** @throws UnprocessableRecordException when a header is missing or the value is not a JSON object */
    static RawRecord of(byte[] json, Headers headers, long recordTimestamp) {
        return of(json, headers, recordTimestamp, null);
    }

    /**
     * @param fields what to keep of the value (the pointers the parser reads), or null for the whole tree
     * @throws UnprocessableRecordException when a header is missing or the value is not a JSON object
     */
    static RawRecord of(byte[] json, Headers headers, long recordTimestamp, PrunedEventReader fields) {
        return new RawRecord(requiredHeader(headers, EventHeaders.EVENT_ID), requiredHeader(headers, EventHeaders.PROJECT),
                longHeader(headers, EventHeaders.EVENT_TIME, recordTimestamp),
                longHeader(headers, EventHeaders.RECEIVED_AT, recordTimestamp),
                "true".equals(EventHeaders.get(headers, EventHeaders.TIME_ADJUSTED)), readObject(json, fields));
    }

    private static JsonNode readObject(byte[] json, PrunedEventReader fields) {
        if (fields != null) {
            JsonNode kept = fields.read(json);
            if (kept != null) {
                return kept;
            }
            // Not a JSON object: the whole tree's reading says why, in the words it always did.
        }
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
