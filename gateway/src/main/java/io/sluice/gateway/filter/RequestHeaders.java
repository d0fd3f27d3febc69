package io.sluice.gateway.filter;

import com.fasterxml.jackson.databind.JsonNode;

/** A header of an event's {@code request.headers}: an object, or a list of [name, value] pairs, as Sentry SDKs send them. */
final class RequestHeaders {
    private RequestHeaders() {
    }

    /** The value of the header of this name (ignoring case), or null when absent or not a string. */
    static String value(JsonNode event, String name) {
        JsonNode request = event.get("request");
        JsonNode headers = request == null ? null : request.get("headers");
        if (headers == null) {
            return null;
        }
        if (headers.isObject()) {
            for (var fields = headers.fields(); fields.hasNext(); ) {
                var field = fields.next();
                if (field.getKey().equalsIgnoreCase(name)) {
                    return field.getValue().isTextual() ? field.getValue().textValue() : null;
                }
            }
        } else if (headers.isArray()) {
            for (JsonNode pair : headers) {
                if (pair.isArray() && pair.size() == 2 && pair.get(0).isTextual() && pair.get(0).textValue().equalsIgnoreCase(name)) {
                    return pair.get(1).isTextual() ? pair.get(1).textValue() : null;
                }
            }
        }
        return null;
    }
}
