package io.sluice.gateway.envelope;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.SampleRate;
import io.sluice.events.SentryFields;

/**
 * What the Sentry endpoints need of an event before it is validated: its top-level {@code type}
 * (a {@code store} body is a transaction when it says so), whether it names an {@code event_id}
 * (a value other than null), where a top-level {@code "event_id": null} has its {@code null}
 * ({@code nullEventIdAt}, a byte offset, or -1), whether it has a top-level {@code sample_rate}
 * ({@link SampleRate#FIELD}) and {@code release} ({@link SentryFields#RELEASE}), and whether anything follows the object. Read
 * with a streaming parser that skips everything else; what is not JSON is left to the validator
 * to refuse.
 */
public record EventFields(String type, boolean hasEventId, int nullEventIdAt, boolean hasSampleRate, boolean hasRelease,
                          boolean trailingContent) {
    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] NULL = "null".getBytes(StandardCharsets.UTF_8);

    public static EventFields scan(byte[] json) {
        String type = null;
        boolean hasEventId = false;
        int nullEventIdAt = -1;
        boolean hasSampleRate = false;
        boolean hasRelease = false;
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return new EventFields(null, false, -1, false, false, false);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("type".equals(name) && value == JsonToken.VALUE_STRING) {
                    type = parser.getText();
                } else if ("event_id".equals(name) && value == JsonToken.VALUE_NULL) {
                    nullEventIdAt = (int) parser.currentTokenLocation().getByteOffset();
                } else if ("event_id".equals(name)) {
                    hasEventId = true;
                } else if (SampleRate.FIELD.equals(name)) {
                    hasSampleRate = true;
                } else if (SentryFields.RELEASE.equals(name)) {
                    hasRelease = true;
                }
                parser.skipChildren();
            }
            // Something after the object (another envelope's lines, say) would be published with it.
            return new EventFields(type, hasEventId, nullEventIdAt, hasSampleRate, hasRelease, parser.nextToken() != null);
        } catch (IOException | RuntimeException notJson) {
            // the validator answers it
        }
        return new EventFields(type, hasEventId, nullEventIdAt, hasSampleRate, hasRelease, false);
    }

    /**
     * The event with {@code id} as its event id, for an event item without one (absent or null,
     * as the validator reads both) inside an envelope that names it: a retried envelope then
     * deduplicates. A null is replaced where it stands (adding a field would make a duplicate
     * key); otherwise the field is added first. The rest of the bytes are kept as they are.
     */
    public byte[] withEventId(byte[] json, String eventId) {
        // The offset is checked against these bytes: one that were not the null's would corrupt the event.
        if (nullEventIdAt < 0 || !Arrays.equals(json, nullEventIdAt, nullEventIdAt + NULL.length, NULL, 0, NULL.length)) {
            return withEventIdFirst(json, eventId);
        }
        byte[] value = ("\"" + eventId + "\"").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[json.length - NULL.length + value.length];
        System.arraycopy(json, 0, out, 0, nullEventIdAt);
        System.arraycopy(value, 0, out, nullEventIdAt, value.length);
        System.arraycopy(json, nullEventIdAt + NULL.length, out, nullEventIdAt + value.length,
                json.length - nullEventIdAt - NULL.length);
        return out;
    }

    /**
     * The transaction with its envelope's sample rate ({@code rate}, the header's
     * {@code trace.sample_rate}: text, as Sentry's SDKs write it, or a number) as its
     * {@code sample_rate}, where the one reader of rates finds it ({@link SampleRate}); one that
     * names its own is kept as it is. A rate that is no JSON value is written as text that is no
     * number, so that it counts as 1 and as invalid.
     */
    public byte[] withSampleRate(byte[] json, JsonNode rate) {
        if (hasSampleRate) {
            return json;
        }
        return withFieldFirst(json, SampleRate.FIELD, rate.isValueNode() ? rate.toString() : "\"not a number\"");
    }

    /**
     * The event with its envelope's release ({@code release}, the header's {@code trace.release})
     * as its {@code release}, where the one reader of releases finds it ({@link SentryFields#release});
     * one that names its own is kept as it is, and so is every event when the header's is no text or empty.
     */
    public byte[] withRelease(byte[] json, JsonNode release) {
        if (hasRelease || !release.isTextual() || release.textValue().isEmpty()) {
            return json;
        }
        return withFieldFirst(json, SentryFields.RELEASE, release.toString());
    }

    private static byte[] withEventIdFirst(byte[] json, String eventId) {
        return withFieldFirst(json, "event_id", "\"" + eventId + "\"");
    }

    /**
     * The event with {@code "name": value} (value as JSON text) added as its first field. What is
     * not an object (empty, {@code 42}, {@code [1]}) is returned as it is, for the validator to refuse.
     */
    private static byte[] withFieldFirst(byte[] json, String name, String value) {
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
        byte[] field = ("\"" + name + "\":" + value + (empty ? "" : ",")).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[json.length + field.length];
        System.arraycopy(json, 0, out, 0, open + 1);
        System.arraycopy(field, 0, out, open + 1, field.length);
        System.arraycopy(json, open + 1, out, open + 1 + field.length, json.length - open - 1);
        return out;
    }
}
