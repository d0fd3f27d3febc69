package io.sluice.processor.parse;

import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.common.header.Headers;

import io.sluice.events.InvalidFieldException;
import io.sluice.events.SentryFields;
import io.sluice.processor.rows.TransactionFact;

/**
 * Turns a raw transaction record (the client's JSON plus the gateway's headers) into a
 * {@link TransactionFact}. Pure: no I/O, no state.
 */
public final class TransactionParser {
    private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH");

    private TransactionParser() {
    }

    /** @throws UnprocessableRecordException with the reason, for the dead-letter topic */
    public static TransactionFact parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        RawRecord raw = RawRecord.of(json, headers, recordTimestamp);
        JsonNode event = raw.event();
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
                SentryFields.text(event, "/contexts/trace/data/http.request.method"),
                SentryFields.text(event, "/contexts/trace/data/http.method"),
                SentryFields.text(event, "/request/method"), nameMethod).toUpperCase(Locale.ROOT);
        // OpenTelemetry-style SDKs put the URL in url.full (http.url before semantic conventions 1.21).
        String url = firstNonEmpty(SentryFields.text(event, "/contexts/trace/data/url"),
                SentryFields.text(event, "/contexts/trace/data/url.full"),
                SentryFields.text(event, "/contexts/trace/data/http.url"),
                SentryFields.text(event, "/request/url"));
        String path = firstNonEmpty(pathOf(url), nameMethod.isEmpty() ? "" : nameParts[1]);

        return new TransactionFact(raw.eventId(), raw.project(), raw.eventTime(), raw.receivedAt(), raw.timeAdjusted(),
                SentryFields.text(event, "/environment"), name, method, url, path, status,
                SentryFields.text(event, "/user/id"),
                SentryFields.text(event, "/sdk/name"), SentryFields.text(event, "/sdk/version"),
                SentryFields.text(event, "/contexts/runtime/name"), SentryFields.text(event, "/contexts/runtime/version"),
                SentryFields.text(event, "/contexts/os/name"), SentryFields.text(event, "/contexts/os/version"),
                partition, offset);
    }

    /**
     * The raw path of an absolute ({@code scheme://authority/path}) or root-relative
     * ({@code /path}) URL, without query and fragment; "" for anything else. Hand-rolled because
     * {@code java.net.URI} costs more than the rest of the record's parsing (measured).
     */
    static String pathOf(String url) {
        int start;
        int schemeEnd = url.indexOf("://");
        if (schemeEnd > 0 && isScheme(url, schemeEnd)) {
            start = schemeEnd + 3;
            while (start < url.length() && "/?#".indexOf(url.charAt(start)) < 0) {
                start++; // the authority
            }
            if (start == url.length() || url.charAt(start) != '/') {
                return "";
            }
        } else if (url.startsWith("/") && !url.startsWith("//")) {
            start = 0;
        } else {
            return "";
        }
        int end = start;
        while (end < url.length() && url.charAt(end) != '?' && url.charAt(end) != '#') {
            end++;
        }
        return url.substring(start, end);
    }

    /** RFC 3986: a letter, then letters, digits, '+', '-' or '.'. */
    private static boolean isScheme(String url, int end) {
        for (int i = 0; i < end; i++) {
            char c = url.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))) {
                return false;
            }
        }
        return true;
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
