package io.sluice.gateway.otlp;

import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;

/**
 * Attributes (of a resource, a span or a span event) by key, the last of a repeated key winning:
 * looked up by their semantic-convention names, current name first, and written as JSON.
 */
final class Attributes {
    /** How deep an attribute's arrays and maps are written; deeper values become a note (an event nests to {@code 200} at most). */
    static final int MAX_VALUE_DEPTH = 8;
    static final Attributes NONE = new Attributes(Map.of());

    private final Map<String, AnyValue> byKey;

    private Attributes(Map<String, AnyValue> byKey) {
        this.byKey = byKey;
    }

    static Attributes of(List<KeyValue> list) {
        if (list.isEmpty()) {
            return NONE;
        }
        Map<String, AnyValue> byKey = new LinkedHashMap<>();
        for (KeyValue pair : list) {
            byKey.put(pair.getKey(), pair.getValue());
        }
        return new Attributes(byKey);
    }

    boolean has(String key) {
        AnyValue value = byKey.get(key);
        return value != null && value.getValueCase() != AnyValue.ValueCase.VALUE_NOT_SET;
    }

    /** The first of the keys present with a scalar value, as text; "" when none is. */
    String text(String... keys) {
        for (String key : keys) {
            AnyValue value = byKey.get(key);
            if (value == null) {
                continue;
            }
            switch (value.getValueCase()) {
                case STRING_VALUE -> {
                    if (!value.getStringValue().isEmpty()) {
                        return value.getStringValue();
                    }
                }
                case INT_VALUE -> {
                    return Long.toString(value.getIntValue());
                }
                case DOUBLE_VALUE -> {
                    return Double.toString(value.getDoubleValue());
                }
                case BOOL_VALUE -> {
                    return Boolean.toString(value.getBoolValue());
                }
                default -> {
                }
            }
        }
        return "";
    }

    /** The first of the keys present, as it was sent (for a status code, which the validator checks); null when none is. */
    AnyValue first(String... keys) {
        for (String key : keys) {
            if (has(key)) {
                return byKey.get(key);
            }
        }
        return null;
    }

    /** Writes the attributes as the fields of the object being written, leaving out {@code skipped} keys. */
    void writeFields(JsonGenerator json, java.util.Set<String> skipped) throws IOException {
        for (Map.Entry<String, AnyValue> attribute : byKey.entrySet()) {
            if (!skipped.contains(attribute.getKey())) {
                json.writeFieldName(attribute.getKey());
                write(json, attribute.getValue(), 0);
            }
        }
    }

    /** One value as JSON: scalars as such, bytes in base64, arrays and maps to {@link #MAX_VALUE_DEPTH}. */
    static void write(JsonGenerator json, AnyValue value, int depth) throws IOException {
        switch (value.getValueCase()) {
            case STRING_VALUE -> json.writeString(value.getStringValue());
            case BOOL_VALUE -> json.writeBoolean(value.getBoolValue());
            case INT_VALUE -> json.writeNumber(value.getIntValue());
            case DOUBLE_VALUE -> {
                if (Double.isFinite(value.getDoubleValue())) {
                    json.writeNumber(value.getDoubleValue());
                } else {
                    json.writeString(Double.toString(value.getDoubleValue())); // JSON has no NaN
                }
            }
            case BYTES_VALUE -> json.writeString(Base64.getEncoder().encodeToString(value.getBytesValue().toByteArray()));
            case ARRAY_VALUE -> {
                if (depth >= MAX_VALUE_DEPTH) {
                    json.writeString("(nested deeper than " + MAX_VALUE_DEPTH + ")");
                    return;
                }
                json.writeStartArray();
                for (AnyValue element : value.getArrayValue().getValuesList()) {
                    write(json, element, depth + 1);
                }
                json.writeEndArray();
            }
            case KVLIST_VALUE -> {
                if (depth >= MAX_VALUE_DEPTH) {
                    json.writeString("(nested deeper than " + MAX_VALUE_DEPTH + ")");
                    return;
                }
                json.writeStartObject();
                Attributes.of(value.getKvlistValue().getValuesList()).writeFieldsAt(json, depth + 1);
                json.writeEndObject();
            }
            default -> json.writeNull();
        }
    }

    private void writeFieldsAt(JsonGenerator json, int depth) throws IOException {
        for (Map.Entry<String, AnyValue> attribute : byKey.entrySet()) {
            json.writeFieldName(attribute.getKey());
            write(json, attribute.getValue(), depth);
        }
    }
}
