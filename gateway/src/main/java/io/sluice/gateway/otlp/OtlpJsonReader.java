package io.sluice.gateway.otlp;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;

import io.opentelemetry.proto.resource.v1.Resource;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * OTLP/JSON into the protobuf messages, as the OTLP specification defines the mapping: field
 * names in lowerCamelCase or as in the .proto; trace and span ids in hex (not protobuf JSON's
 * base64); 64-bit integers as numbers or decimal strings; enums as integers (or their names);
 * unknown fields ignored. Read as a stream into the messages' builders (no JSON tree), driven by
 * the messages' descriptors, so every OTLP message reads the same way.
 *
 * <p>Hand-written rather than protobuf-java-util's {@code JsonFormat}: that one reads ids as
 * base64, and brings Gson and Guava for it.
 */
final class OtlpJsonReader {
    /** The bytes fields that OTLP/JSON writes in hex (the trace's, a link's, a log record's, an exemplar's ids). */
    private static final Set<String> HEX_FIELDS = Set.of("trace_id", "span_id", "parent_span_id");
    private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS = new ConcurrentHashMap<>();

    private final JsonFactory factory;
    private final int maxItems;

    /** @param maxDepth messages nested at most so deep (JSON nests twice per message: an object in an array) */
    OtlpJsonReader(int maxDepth, int maxItems) {
        this.maxItems = maxItems;
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(2 * maxDepth + 2).build())
                .build();
    }

    /**
     * Hands each item (span, log record, metric: {@code shape}'s) of the export to {@code each}, in
     * order, with its resource's attributes, holding in {@code held} what it takes decoded
     * ({@link DecodedSize}'s costs, counted as it is read) until {@code each} is done with it: the
     * export is never decoded whole. An item read before its resource (JSON's members have no
     * order) waits, held, until its {@code ResourceSpans} (or logs, or metrics) ends. An item
     * {@code decode} refuses (asked with its number, from 0) is passed over unread.
     *
     * @throws Rejection 400 when it is not an OTLP/JSON export, 413 beyond {@code maxItems} items
     */
    <T extends Message> void forEachItem(byte[] body, ExportShape<T> shape, HeldBytes held, IntPredicate decode,
                                         ExportDecoder.ItemConsumer<T> each) {
        Reading reading = new Reading(held, shape);
        try {
            read(body, parser -> fields(parser, shape.request(), field -> {
                if (field.getNumber() == ExportShape.RESOURCE_ITEMS) {
                    objects(parser, field, () -> resourceItems(parser, shape, reading, decode, each));
                } else {
                    parser.skipChildren();
                }
            }));
        } catch (NotOtlpJson e) {
            throw new Rejection(Outcome.INVALID_JSON, "the body is not an OTLP/JSON " + shape.request().getName() + ": "
                    + e.getMessage());
        } finally {
            reading.giveBackAll();
        }
    }

    private <T extends Message> void resourceItems(JsonParser parser, ExportShape<T> shape, Reading reading, IntPredicate decode,
                                                   ExportDecoder.ItemConsumer<T> each) throws IOException {
        long start = reading.held();
        Attributes[] resource = {null};
        List<T> waiting = new ArrayList<>();
        fields(parser, shape.resourceItems(), field -> {
            if (field.getNumber() == ExportShape.RESOURCE) {
                if (parser.currentToken() != JsonToken.START_OBJECT) {
                    throw invalid("'" + field.getJsonName() + "' must be an object");
                }
                Resource.Builder read = Resource.newBuilder();
                readMessage(parser, read, reading);
                resource[0] = Attributes.of(read.build().getAttributesList());
            } else if (field.getNumber() == ExportShape.SCOPE_ITEMS) {
                objects(parser, field, () -> fields(parser, shape.scopeItems(), scopeField -> {
                    if (scopeField.getNumber() != ExportShape.ITEMS) {
                        parser.skipChildren();
                        return;
                    }
                    objects(parser, scopeField, () -> {
                        if (!decode.test(reading.item())) {
                            parser.skipChildren();
                            return;
                        }
                        long before = reading.held();
                        Message.Builder item = shape.builder().get();
                        readMessage(parser, item, reading);
                        @SuppressWarnings("unchecked") // the shape's builder builds its item type
                        T built = (T) item.build();
                        if (resource[0] == null) {
                            waiting.add(built);
                        } else {
                            each.accept(resource[0], built);
                            reading.release(reading.held() - before);
                        }
                    });
                }));
            } else {
                parser.skipChildren();
            }
        });
        for (T item : waiting) {
            each.accept(resource[0] == null ? Attributes.NONE : resource[0], item);
        }
        reading.release(reading.held() - start);
    }

    private interface FieldReader {
        void read(FieldDescriptor field) throws IOException;
    }

    private interface ElementReader {
        void read() throws IOException;
    }

    /**
     * Reads the fields of the object the parser is in with {@code each}, called at each known field's
     * value (unknown fields, and null values, are skipped, as the specification asks).
     */
    private static void fields(JsonParser parser, Descriptor type, FieldReader each) throws IOException {
        Map<String, FieldDescriptor> fields = fieldsOf(type);
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            FieldDescriptor field = fields.get(parser.currentName());
            JsonToken value = parser.nextToken();
            if (field == null || value == JsonToken.VALUE_NULL) {
                parser.skipChildren();
                continue;
            }
            each.read(field);
        }
        if (token != JsonToken.END_OBJECT) {
            throw invalid("unexpected " + token);
        }
    }

    /** Reads the array of objects the parser is at, each with {@code each} called at its start. */
    private static void objects(JsonParser parser, FieldDescriptor field, ElementReader each) throws IOException {
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw invalid("'" + field.getJsonName() + "' must be an array");
        }
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                throw invalid("'" + field.getJsonName() + "' must hold objects");
            }
            each.read();
        }
    }

    private interface ObjectReader {
        void read(JsonParser parser) throws IOException;
    }

    /** Reads the body's one object with {@code reader} (from its start), mapping what is wrong with the JSON to a 400. */
    private void read(byte[] body, ObjectReader reader) {
        try (JsonParser parser = factory.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw invalid("the body must be a JSON object");
            }
            reader.read(parser);
            if (parser.nextToken() != null) {
                throw invalid("something follows the JSON object");
            }
        } catch (StreamConstraintsException e) {
            throw invalid("the body nests too deeply: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw invalid("the body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw invalid("the body cannot be read as JSON");
        }
    }

    /**
     * One export being read: the items read so far, and what the messages read and not yet done
     * with take decoded, taken from {@code held} in steps.
     */
    private final class Reading {
        private static final long STEP = 64 * 1024;
        private final HeldBytes held;
        private final ExportShape<?> shape;
        private int items;
        private long decoded;
        private long taken;

        Reading(HeldBytes held, ExportShape<?> shape) {
            this.held = held;
            this.shape = shape;
        }

        void decoded(long bytes) {
            decoded += bytes;
            if (decoded > taken) {
                long more = Math.max(decoded - taken, STEP);
                held.take(more);
                taken += more;
            }
        }

        /** What the messages not yet done with take decoded. */
        long held() {
            return decoded;
        }

        /** Messages taking {@code bytes} decoded are done with; gives back what was taken beyond a step of what is still held. */
        void release(long bytes) {
            decoded -= bytes;
            if (taken - decoded > STEP) {
                held.giveBack(taken - decoded);
                taken = decoded;
            }
        }

        /** The export is done with. */
        void giveBackAll() {
            held.giveBack(taken);
            taken = 0;
            decoded = 0;
        }

        /** One more item: its number (from 0), or the 413 beyond {@code maxItems}. */
        int item() {
            if (++items > maxItems) {
                throw shape.tooMany(maxItems);
            }
            return items - 1;
        }
    }

    /** Reads the fields of the object the parser is at the start of into {@code builder}, counting what it takes decoded. */
    private void readMessage(JsonParser parser, Message.Builder builder, Reading reading) throws IOException {
        reading.decoded(DecodedSize.MESSAGE_BYTES);
        Map<String, FieldDescriptor> fields = fieldsOf(builder.getDescriptorForType());
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            FieldDescriptor field = fields.get(parser.currentName());
            JsonToken value = parser.nextToken();
            if (field == null || value == JsonToken.VALUE_NULL) {
                parser.skipChildren(); // unknown fields are ignored, as the specification asks
                continue;
            }
            if (field.isRepeated()) {
                if (value != JsonToken.START_ARRAY) {
                    throw invalid("'" + field.getJsonName() + "' must be an array");
                }
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    builder.addRepeatedField(field, value(parser, field, builder, reading));
                }
            } else {
                builder.setField(field, value(parser, field, builder, reading));
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw invalid("unexpected " + token);
        }
    }

    private Object value(JsonParser parser, FieldDescriptor field, Message.Builder parent, Reading reading) throws IOException {
        JsonToken token = parser.currentToken();
        String name = field.getJsonName();
        switch (field.getJavaType()) {
            case MESSAGE -> {
                if (token != JsonToken.START_OBJECT) {
                    throw invalid("'" + name + "' must be an object");
                }
                Message.Builder child = parent.newBuilderForField(field);
                readMessage(parser, child, reading);
                return child.build();
            }
            case STRING -> {
                String text = text(parser, name);
                reading.decoded(DecodedSize.FIELD_BYTES + 2L * text.length());
                return text;
            }
            case BOOLEAN -> {
                if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
                    return parser.getBooleanValue();
                }
                throw invalid("'" + name + "' must be true or false");
            }
            case INT -> {
                BigInteger number = integer(parser, name);
                boolean unsigned = field.getType() == FieldDescriptor.Type.UINT32 || field.getType() == FieldDescriptor.Type.FIXED32;
                if (number.bitLength() > (unsigned ? 32 : 31) || (unsigned && number.signum() < 0)) {
                    throw invalid("'" + name + "' is out of range: " + cut(number));
                }
                return number.intValue();
            }
            case LONG -> {
                BigInteger number = integer(parser, name);
                boolean unsigned = field.getType() == FieldDescriptor.Type.UINT64 || field.getType() == FieldDescriptor.Type.FIXED64;
                if (number.bitLength() > (unsigned ? 64 : 63) || (unsigned && number.signum() < 0)) {
                    throw invalid("'" + name + "' is out of range: " + cut(number));
                }
                return number.longValue();
            }
            case DOUBLE, FLOAT -> {
                double number = floating(parser, name);
                return field.getJavaType() == FieldDescriptor.JavaType.FLOAT ? (Object) (float) number : (Object) number;
            }
            case BYTE_STRING -> {
                String text = text(parser, name);
                reading.decoded(DecodedSize.FIELD_BYTES + text.length());
                try {
                    return ByteString.copyFrom(HEX_FIELDS.contains(field.getName())
                            ? HexFormat.of().parseHex(text) : Base64.getDecoder().decode(text));
                } catch (IllegalArgumentException e) {
                    throw invalid("'" + name + "' must be " + (HEX_FIELDS.contains(field.getName()) ? "hex" : "base64")
                            + ": " + e.getMessage());
                }
            }
            case ENUM -> {
                EnumValueDescriptor constant;
                if (token == JsonToken.VALUE_STRING) {
                    constant = field.getEnumType().findValueByName(parser.getText());
                } else {
                    BigInteger number = integer(parser, name);
                    constant = number.bitLength() > 31 ? null
                            : field.getEnumType().findValueByNumberCreatingIfUnknown(number.intValue());
                }
                if (constant == null) {
                    throw invalid("'" + name + "' is no value of " + field.getEnumType().getName());
                }
                return constant;
            }
            default -> throw new IllegalStateException("OTLP has no field of type " + field.getJavaType());
        }
    }

    /** A string, which must be valid Unicode: a protobuf string cannot hold the lone surrogate a JSON escape can ({@code \ud800}). */
    private static String text(JsonParser parser, String name) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
            throw invalid("'" + name + "' must be a string");
        }
        String text = parser.getText();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw invalid("'" + name + "' is not valid Unicode (an unpaired surrogate)");
            }
        }
        return text;
    }

    /**
     * An integer as a JSON number or a decimal string, as protobuf's JSON mapping writes 64-bit ones.
     * A decimal of more than {@link #INTEGER_DIGITS} integer digits, or with digits after the point,
     * is refused before it is expanded: {@code 1e10000000} is a ten-million-digit integer, and
     * telling whether {@code 1e-60000000} is one expands 10^60000000 (43 s of an event loop).
     */
    private static BigInteger integer(JsonParser parser, String name) throws IOException {
        JsonToken token = parser.currentToken();
        try {
            if (token == JsonToken.VALUE_NUMBER_INT) {
                return parser.getBigIntegerValue(); // at most Jackson's 1,000 digits
            }
            if (token == JsonToken.VALUE_NUMBER_FLOAT) {
                return bounded(parser.getDecimalValue(), name);
            }
            if (token == JsonToken.VALUE_STRING && parser.getTextLength() <= 40) {
                return bounded(new BigDecimal(parser.getText().strip()), name);
            }
        } catch (ArithmeticException | NumberFormatException notAnInteger) {
            // answered below
        }
        throw notAnInteger(name);
    }

    private static NotOtlpJson notAnInteger(String name) {
        return invalid("'" + name + "' must be an integer (a number or a string of one)");
    }

    /** Integer digits beyond any 64-bit value (20), with room: more is out of range however written. */
    private static final int INTEGER_DIGITS = 24;

    private static BigInteger bounded(BigDecimal decimal, String name) {
        // Digits after the point may be zeros (1500e-2); at most Jackson's 1,000 to strip. Stripped, 0 has scale 0.
        BigDecimal digits = decimal.scale() > 0 ? decimal.stripTrailingZeros() : decimal;
        if (digits.scale() > 0) {
            throw notAnInteger(name); // digits after the point, however many: no integer
        }
        if ((long) digits.precision() - digits.scale() > INTEGER_DIGITS) {
            throw invalid("'" + name + "' is out of range");
        }
        return digits.toBigIntegerExact();
    }

    /** A number for a message: at most 40 characters of it. */
    private static String cut(BigInteger number) {
        String text = number.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    private static double floating(JsonParser parser, String name) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getDoubleValue();
        }
        if (token == JsonToken.VALUE_STRING) {
            switch (parser.getText()) {
                case "NaN" -> {
                    return Double.NaN;
                }
                case "Infinity" -> {
                    return Double.POSITIVE_INFINITY;
                }
                case "-Infinity" -> {
                    return Double.NEGATIVE_INFINITY;
                }
                default -> {
                    if (parser.getTextLength() <= 40) {
                        try {
                            return Double.parseDouble(parser.getText().strip());
                        } catch (NumberFormatException notANumber) {
                            // answered below
                        }
                    }
                }
            }
        }
        throw invalid("'" + name + "' must be a number");
    }

    /** A message's fields by their lowerCamelCase JSON name and by their .proto name. */
    private static Map<String, FieldDescriptor> fieldsOf(Descriptor message) {
        return FIELDS.computeIfAbsent(message, descriptor -> {
            Map<String, FieldDescriptor> byName = new HashMap<>();
            for (FieldDescriptor field : descriptor.getFields()) {
                byName.put(field.getName(), field);
                byName.put(field.getJsonName(), field);
            }
            return Map.copyOf(byName);
        });
    }

    /** What is wrong with the JSON; answered as a 400 naming the export it is not ({@link #forEachItem}). */
    private static NotOtlpJson invalid(String message) {
        return new NotOtlpJson(message);
    }

    private static final class NotOtlpJson extends RuntimeException {
        NotOtlpJson(String message) {
            super(message, null, false, false);
        }
    }
}
