package io.sluice.aggregate;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.EventHeaders;
import io.sluice.events.InvalidFieldException;
import io.sluice.events.SentryFields;

/**
 * Turns a raw transaction record (the client's JSON plus the gateway's headers) into a
 * {@link TransactionFact}. Pure: no I/O, no state.
 */
public final class TransactionParser {
    private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH");
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(200).build()).build());

    private TransactionParser() {
    }

    /** @throws UnprocessableRecordException with the reason, for the dead-letter topic */
    public static TransactionFact parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        String eventId = requiredHeader(headers, EventHeaders.EVENT_ID);
        String project = requiredHeader(headers, EventHeaders.PROJECT);
        long receivedAt = longHeader(headers, EventHeaders.RECEIVED_AT, recordTimestamp);
        long eventTime = longHeader(headers, EventHeaders.EVENT_TIME, recordTimestamp);
        boolean adjusted = "true".equals(EventHeaders.get(headers, EventHeaders.TIME_ADJUSTED));
        JsonNode event = readObject(json);
        Integer status;
        try {
            status = SentryFields.statusCode(event);
        } catch (InvalidFieldException e) {
            throw new UnprocessableRecordException(e.field() + ": " + e.getMessage());
        }

        String name = SentryFields.text(event, "/transaction");
        String[] nameParts = name.split(" ", 2);
        String nameMethod = nameParts.length == 2 && HTTP_METHODS.contains(nameParts[0].toUpperCase(Locale.ROOT))
                ? nameParts[0].toUpperCase(Locale.ROOT) : "";
        String method = firstNonEmpty(SentryFields.text(event, "/contexts/trace/data/method"),
                SentryFields.text(event, "/request/method"), nameMethod).toUpperCase(Locale.ROOT);
        String url = firstNonEmpty(SentryFields.text(event, "/contexts/trace/data/url"),
                SentryFields.text(event, "/request/url"));
        String path = firstNonEmpty(pathOf(url), nameMethod.isEmpty() ? "" : nameParts[1]);

        return new TransactionFact(eventId, project, eventTime, receivedAt, adjusted,
                SentryFields.text(event, "/environment"), name, method, url, path, status,
                SentryFields.text(event, "/user/id"),
                SentryFields.text(event, "/sdk/name"), SentryFields.text(event, "/sdk/version"),
                SentryFields.text(event, "/contexts/runtime/name"), SentryFields.text(event, "/contexts/runtime/version"),
                SentryFields.text(event, "/contexts/os/name"), SentryFields.text(event, "/contexts/os/version"),
                partition, offset);
    }

    private static JsonNode readObject(byte[] json) {
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

    private static String pathOf(String url) {
        if (url.isEmpty()) {
            return "";
        }
        try {
            String path = new URI(url).getRawPath();
            return path == null ? "" : path;
        } catch (URISyntaxException e) {
            return "";
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

    private static String firstNonEmpty(String... candidates) {
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isEmpty()) {
                return candidate;
            }
        }
        return "";
    }
}
