package io.sluice.gateway.envelope;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * What the Sentry endpoints need of an event before it is validated: its top-level {@code type}
 * (a {@code store} body is a transaction when it says so) and whether it names an {@code event_id}
 * (even null: adding another would make a duplicate key),
 * and whether anything follows the object. Read with a streaming parser that skips everything
 * else; what is not JSON is left to the validator to refuse.
 */
public record EventFields(String type, boolean hasEventId, boolean trailingContent) {
    private static final JsonFactory JSON = new JsonFactory();

    public static EventFields scan(byte[] json) {
        String type = null;
        boolean hasEventId = false;
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return new EventFields(null, false, false);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("type".equals(name) && value == JsonToken.VALUE_STRING) {
                    type = parser.getText();
                } else if ("event_id".equals(name)) {
                    hasEventId = true;
                }
                parser.skipChildren();
            }
            // Something after the object (another envelope's lines, say) would be published with it.
            return new EventFields(type, hasEventId, parser.nextToken() != null);
        } catch (IOException | RuntimeException notJson) {
            // the validator answers it
        }
        return new EventFields(type, hasEventId, false);
    }

    /**
     * The event with {@code "event_id": id} added as its first field, for an event item without
     * one inside an envelope that names it: a retried envelope then deduplicates. The rest of the
     * bytes are kept as they are. What is not an object (empty, {@code 42}, {@code [1]}) is
     * returned as it is, for the validator to refuse.
     */
    public static byte[] withEventId(byte[] json, String eventId) {
        int open = 0;
        while (open < json.length && Character.isWhitespace(json[open])) {
            open++;
        }
        if (open == json.length || json[open] != '{') {
            return json;
        }
        int next = open + 1;
        while (next < json.length && Character.isWhitespace(json[next])) {
            next++;
        }
        boolean empty = next < json.length && json[next] == '}';
        byte[] field = ("\"event_id\":\"" + eventId + "\"" + (empty ? "" : ",")).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[json.length + field.length];
        System.arraycopy(json, 0, out, 0, open + 1);
        System.arraycopy(field, 0, out, open + 1, field.length);
        System.arraycopy(json, open + 1, out, open + 1 + field.length, json.length - open - 1);
        return out;
    }
}
