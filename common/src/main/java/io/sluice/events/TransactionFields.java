package io.sluice.events;

import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.common.header.Headers;

/**
 * What Sluice keeps of a transaction's JSON, read the one way: by the gateway, which sends it on
 * in the {@link FieldsHeader}, and by the processor from the JSON itself when a record has no
 * such header (written by an older gateway). Reading an event differently here or in
 * {@link SentryFields} means raising {@link FieldsHeader#VERSION} (FieldsReadingTest says when).
 */
public record TransactionFields(
        String environment,
        String transaction,
        String method,
        String url,
        String path,
        Integer statusCode,
        String userId,
        String sdkName,
        String sdkVersion,
        String runtimeName,
        String runtimeVersion,
        String osName,
        String osVersion,
        String route,
        String op,
        Double durationMs,
        SampleRate sampleRate,
        String release) {
    /** What a method that is none of HTTP's is stored as. */
    public static final String OTHER_METHOD = "OTHER";
    private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH");

    /** Without project rules (the processor's reading of a record without the gateway's header). */
    public static TransactionFields of(JsonNode event) {
        return of(event, RouteRules.NONE);
    }

    /**
     * @param rules the project's route rules (the gateway has the project)
     * @throws InvalidFieldException when the status code is present but not one
     */
    public static TransactionFields of(JsonNode event, RouteRules rules) {
        Integer status = SentryFields.statusCode(event);
        String name = SentryFields.text(event, "/transaction");
        String[] nameParts = name.split(" ", 2);
        String nameMethod = nameParts.length == 2 && HTTP_METHODS.contains(nameParts[0].toUpperCase(Locale.ROOT))
                ? nameParts[0].toUpperCase(Locale.ROOT) : "";
        String method = firstNonEmpty(SentryFields.text(event, "/contexts/trace/data/method"),
                SentryFields.text(event, "/contexts/trace/data/http.request.method"),
                SentryFields.text(event, "/contexts/trace/data/http.method"),
                SentryFields.text(event, "/request/method"), nameMethod).toUpperCase(Locale.ROOT);
        // The method is a grouping key of the per-route aggregates: one of HTTP's, else OTHER, so a
        // client cannot add a series per event with invented ones.
        method = method.isEmpty() || HTTP_METHODS.contains(method) ? method : OTHER_METHOD;
        String url = url(event);
        String path = firstNonEmpty(pathOf(url), nameMethod.isEmpty() ? "" : nameParts[1]);
        String op = SentryFields.text(event, "/contexts/trace/op");
        return new TransactionFields(SentryFields.text(event, "/environment"), name, method, url, path, status,
                SentryFields.text(event, "/user/id"),
                SentryFields.text(event, "/sdk/name"), SentryFields.text(event, "/sdk/version"),
                SentryFields.text(event, "/contexts/runtime/name"), SentryFields.text(event, "/contexts/runtime/version"),
                SentryFields.text(event, "/contexts/os/name"), SentryFields.text(event, "/contexts/os/version"),
                Routes.of(event, method, name, path, rules), op, SentryFields.durationMs(event), SampleRate.of(event),
                SentryFields.release(event));
    }

    /** A transaction's request URL: its trace context's, else its request's; "" when it has none. */
    public static String url(JsonNode event) {
        // OpenTelemetry-style SDKs put the URL in url.full (http.url before semantic conventions 1.21).
        return firstNonEmpty(SentryFields.text(event, "/contexts/trace/data/url"),
                SentryFields.text(event, "/contexts/trace/data/url.full"),
                SentryFields.text(event, "/contexts/trace/data/http.url"),
                SentryFields.text(event, "/request/url"));
    }

    private static final int FIELDS = TransactionFields.class.getRecordComponents().length;

    /** As the {@link FieldsHeader}'s value, for an event of {@code jsonBytes}; null when they may take more than it carries. */
    public byte[] toHeader(int jsonBytes) {
        return FieldsHeader.encode(jsonBytes, FieldsHeader.TRANSACTION, environment, transaction, method, url, path,
                statusCode == null ? null : statusCode.toString(), userId, sdkName, sdkVersion, runtimeName, runtimeVersion,
                osName, osVersion, route, op, durationMs == null ? null : durationMs.toString(),
                sampleRate.rate() == 1 ? null : Double.toString(sampleRate.rate()), release);
    }

    /** From the record's {@link FieldsHeader}; null when it has none this version can read. */
    public static TransactionFields fromHeader(Headers headers) {
        String[] v = FieldsHeader.decode(headers, FieldsHeader.TRANSACTION, FIELDS);
        if (v == null) {
            return null;
        }
        Integer status;
        try {
            status = v[5] == null ? null : Integer.valueOf(v[5]);
        } catch (NumberFormatException e) {
            return null;
        }
        if (status != null && (status < 100 || status > 599)) {
            return null; // not what a gateway writes: read the JSON, which decides
        }
        Double duration;
        try {
            duration = v[15] == null ? null : Double.valueOf(v[15]);
        } catch (NumberFormatException e) {
            return null;
        }
        SampleRate sampleRate = v[16] == null ? SampleRate.NONE : SampleRate.of(v[16]);
        if (sampleRate == null) {
            return null; // not what a gateway writes: read the JSON, which decides
        }
        return new TransactionFields(v[0], v[1], v[2], v[3], v[4], status, v[6], v[7], v[8], v[9], v[10], v[11], v[12],
                v[13], v[14], duration, sampleRate, v[17]);
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
