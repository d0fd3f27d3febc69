package io.sluice.gateway.validate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes an event's JSON and, as it writes it, builds the tree {@link EventValidator#parse(byte[])}
 * would read from those bytes: the same nodes (a number written with a fraction or an exponent is
 * a double, as the parser reads it; an integer an int, else a long or a big integer), the names in
 * the order written. An event made here (an OTLP span's) is validated from that tree, not parsed
 * again ({@link EventValidator#parse(WrittenEvent)}). Only what an event's writer needs is taken:
 * structure, names, text, numbers, booleans and null; anything else (raw JSON, binary, objects
 * to serialize) is refused, since its tree could differ from its bytes'.
 */
public final class EventWriter extends JsonGeneratorDelegate {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ByteArrayOutputStream out;
    /** The objects and arrays open, innermost first. */
    private final Deque<ContainerNode<?>> open = new ArrayDeque<>();
    private ObjectNode root;
    private String name;
    private long tokens;
    private int depth;
    private int longestText;
    private int longestNameBytes;
    private boolean nameTheParserRefuses;

    /** @param json writes to {@code out}: the bytes {@link #written} returns */
    public EventWriter(JsonGenerator json, ByteArrayOutputStream out) {
        super(json, false);
        this.out = out;
    }

    /** The event written, once this writer is closed. */
    public WrittenEvent written() {
        if (root == null || !open.isEmpty() || !isClosed()) {
            throw new IllegalStateException("an event is one JSON object, written whole and closed");
        }
        return new WrittenEvent(out.toByteArray(), root, tokens, depth, longestText, longestNameBytes, nameTheParserRefuses);
    }

    @Override
    public void writeStartObject() throws IOException {
        super.writeStartObject();
        ObjectNode object = NODES.objectNode();
        if (open.isEmpty()) {
            if (root != null) {
                throw new IllegalStateException("an event is one JSON object");
            }
            root = object;
        } else {
            add(object);
        }
        opened(object);
    }

    @Override
    public void writeStartObject(Object forValue) throws IOException {
        writeStartObject();
    }

    @Override
    public void writeStartObject(Object forValue, int size) throws IOException {
        writeStartObject();
    }

    @Override
    public void writeStartArray() throws IOException {
        super.writeStartArray();
        if (open.isEmpty()) {
            throw new IllegalStateException("an event is one JSON object");
        }
        com.fasterxml.jackson.databind.node.ArrayNode array = NODES.arrayNode();
        add(array);
        opened(array);
    }

    @Override
    public void writeStartArray(int size) throws IOException {
        writeStartArray();
    }

    @Override
    public void writeStartArray(Object forValue) throws IOException {
        writeStartArray();
    }

    @Override
    public void writeStartArray(Object forValue, int size) throws IOException {
        writeStartArray();
    }

    @Override
    public void writeEndObject() throws IOException {
        super.writeEndObject();
        closed();
    }

    @Override
    public void writeEndArray() throws IOException {
        super.writeEndArray();
        closed();
    }

    @Override
    public void writeFieldName(String name) throws IOException {
        super.writeFieldName(name);
        tokens++;
        longestNameBytes = Math.max(longestNameBytes, utf8Length(name));
        this.name = name;
    }

    /**
     * A name's length as the parser limits it, in UTF-8 bytes; a surrogate counts 2 (a pair, 4).
     * The parser refuses a name holding a surrogate as this generator writes it (escaped, backslash-u),
     * so such a name sends the event to the parser.
     */
    private int utf8Length(String name) {
        int bytes = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isSurrogate(c)) {
                bytes += 2;
                nameTheParserRefuses = true;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    @Override
    public void writeFieldName(SerializableString name) throws IOException {
        writeFieldName(name.getValue());
    }

    @Override
    public void writeString(String text) throws IOException {
        super.writeString(text);
        if (text == null) {
            value(NODES.nullNode());
            return;
        }
        longestText = Math.max(longestText, text.length());
        value(NODES.textNode(text));
    }

    @Override
    public void writeString(char[] text, int offset, int length) throws IOException {
        writeString(new String(text, offset, length));
    }

    @Override
    public void writeString(SerializableString text) throws IOException {
        writeString(text.getValue());
    }

    @Override
    public void writeNumber(short value) throws IOException {
        super.writeNumber(value);
        value(NODES.numberNode((int) value));
    }

    @Override
    public void writeNumber(int value) throws IOException {
        super.writeNumber(value);
        value(NODES.numberNode(value));
    }

    @Override
    public void writeNumber(long value) throws IOException {
        super.writeNumber(value);
        value(integer(value));
    }

    @Override
    public void writeNumber(BigInteger value) throws IOException {
        super.writeNumber(value);
        value(value.bitLength() < 64 ? integer(value.longValue()) : NODES.numberNode(value));
    }

    @Override
    public void writeNumber(double value) throws IOException {
        super.writeNumber(value);
        // Written as its shortest text, which reads back as the same double; NaN and the infinities as text.
        value(Double.isFinite(value) ? NODES.numberNode(value) : NODES.textNode(Double.toString(value)));
    }

    @Override
    public void writeNumber(float value) throws IOException {
        writeNumber((double) value);
    }

    @Override
    public void writeNumber(BigDecimal value) throws IOException {
        super.writeNumber(value);
        String text = isEnabled(Feature.WRITE_BIGDECIMAL_AS_PLAIN) ? value.toPlainString() : value.toString();
        value(number(text));
    }

    @Override
    public void writeNumber(String encoded) throws IOException {
        super.writeNumber(encoded);
        value(number(encoded));
    }

    @Override
    public void writeBoolean(boolean value) throws IOException {
        super.writeBoolean(value);
        value(NODES.booleanNode(value));
    }

    @Override
    public void writeNull() throws IOException {
        super.writeNull();
        value(NODES.nullNode());
    }

    @Override
    public void writeNumber(char[] encoded, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeString(java.io.Reader reader, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRawUTF8String(byte[] text, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeUTF8String(byte[] text, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRaw(String text) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRaw(String text, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRaw(SerializableString raw) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRaw(char[] text, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRaw(char c) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRawValue(String text) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRawValue(String text, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeRawValue(char[] text, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeBinary(Base64Variant variant, byte[] data, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeObject(Object pojo) {
        throw notAnEventsWrite();
    }

    @Override
    public void writePOJO(Object pojo) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeTree(com.fasterxml.jackson.core.TreeNode tree) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeEmbeddedObject(Object object) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeFieldId(long id) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeArray(int[] array, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeArray(long[] array, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeArray(double[] array, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeArray(String[] array, int offset, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public int writeBinary(Base64Variant variant, InputStream data, int length) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeObjectId(Object id) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeObjectRef(Object id) {
        throw notAnEventsWrite();
    }

    @Override
    public void writeTypeId(Object id) {
        throw notAnEventsWrite();
    }

    private static UnsupportedOperationException notAnEventsWrite() {
        return new UnsupportedOperationException("an event is written as names, text, numbers, booleans and null");
    }

    private void opened(ContainerNode<?> container) {
        tokens++;
        open.push(container);
        depth = Math.max(depth, open.size());
    }

    private void closed() {
        tokens++;
        open.pop();
    }

    /** A value's token, and the value into the object or array open. */
    private void value(JsonNode value) {
        tokens++;
        add(value);
    }

    /** A value (or an object or array just opened) into the object or array open, under the name just written. */
    private void add(JsonNode value) {
        ContainerNode<?> container = open.peek();
        if (container instanceof ObjectNode object) {
            if (object.replace(name, value) != null) {
                nameTheParserRefuses = true; // a name given twice
            }
        } else if (container != null) {
            ((com.fasterxml.jackson.databind.node.ArrayNode) container).add(value);
        } else {
            throw new IllegalStateException("an event is one JSON object");
        }
    }

    private static JsonNode integer(long value) {
        return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
    }

    /** A number as the parser reads its text: with a fraction or an exponent, a double; else an integer of its size. */
    private static JsonNode number(String text) {
        if (text.indexOf('.') >= 0 || text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
            return NODES.numberNode(Double.parseDouble(text));
        }
        BigInteger value = new BigInteger(text);
        return value.bitLength() < 64 ? integer(value.longValue()) : NODES.numberNode(value);
    }
}
