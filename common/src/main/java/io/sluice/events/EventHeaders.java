package io.sluice.events;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The record format of the raw topics. The value is the JSON the client sent, decompressed and
 * otherwise unchanged; the key is the project token; the record timestamp is the normalized
 * event time (ms). Metadata travels in these headers, all UTF-8 text; the fields read from the
 * JSON in one more, binary and optional: {@link FieldsHeader}.
 */
public final class EventHeaders {
    /** 32 lower-case hex digits: the client's {@code event_id}, or one the gateway generated. */
    public static final String EVENT_ID = "sluice.event_id";
    /** The project token. */
    public static final String PROJECT = "sluice.project";
    /** {@code transaction} or {@code project} (error report): the endpoint that accepted it. */
    public static final String ENDPOINT = "sluice.endpoint";
    /** When the gateway received it, epoch milliseconds. */
    public static final String RECEIVED_AT = "sluice.received_at";
    /** Normalized event time, epoch milliseconds (equal to the record timestamp). */
    public static final String EVENT_TIME = "sluice.event_time";
    /** {@code true} when the client's time was missing or outside the horizon and receive time was used. */
    public static final String TIME_ADJUSTED = "sluice.time_adjusted";
    /** Version of the gateway that accepted it. */
    public static final String GATEWAY_VERSION = "sluice.gateway_version";

    private EventHeaders() {
    }

    public static void put(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /** The header's text, or null when the record does not carry it. */
    public static String get(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
