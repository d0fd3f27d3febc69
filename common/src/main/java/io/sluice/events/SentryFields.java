package io.sluice.events;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads fields of Sentry-style payloads that come in several shapes, the same way in the gateway
 * (which validates them) and the processor (which stores them).
 */
public final class SentryFields {
    public static final String STATUS_TAG = "http.status_code";

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
            status = event.at("/contexts/response/status_code");
            field = "contexts.response.status_code";
        }
        if (isAbsent(status)) {
            status = event.at("/contexts/trace/data/http.response.status_code"); // OpenTelemetry-style SDKs
            field = "contexts.trace.data.http.response.status_code";
        }
        if (isAbsent(status)) {
            return null;
        }
        int code;
        if (status.isIntegralNumber() && status.canConvertToInt()) {
            code = status.intValue();
        } else if (status.isTextual() && status.textValue().strip().matches("\\d{1,3}")) {
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

    /** A string at a JSON pointer, or "" when absent; numbers become their text (user ids often are). */
    public static String text(JsonNode event, String pointer) {
        JsonNode node = event.at(pointer);
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isNumber() || node.isBoolean()) {
            return node.asText();
        }
        return "";
    }

    public static boolean isAbsent(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode();
    }

    public static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
