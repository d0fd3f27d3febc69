package io.sluice.gateway.otlp;

import java.io.IOException;
import java.util.function.IntPredicate;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DiscardUnknownFieldsParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.WireFormat;

import io.opentelemetry.proto.resource.v1.Resource;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Reads the items (spans, log records, metrics: its {@link ExportShape}) of an OTLP/HTTP export,
 * a body already decompressed and within the size limit, in either encoding. What cannot be read
 * is a 400 naming why (a length that runs past the end, invalid UTF-8, nesting deeper than
 * {@link #MAX_DEPTH}, JSON that is not OTLP's); an export of more than {@code maxItems} items is a
 * 413, since the exporter must send smaller batches.
 *
 * <p>The items are handed out one at a time, the export never held decoded whole: protobuf-java's
 * objects take several times the bytes they were sent in. A protobuf export is walked by hand
 * down to its items, each decoded alone (its estimated size held meanwhile, {@link DecodedSize});
 * a JSON export is read an item at a time too ({@link OtlpJsonReader}).
 */
final class ExportDecoder<T extends Message> {
    /** Takes an item of the export with its resource's attributes (read once per resource, shared by its items). */
    @FunctionalInterface
    interface ItemConsumer<T> {
        void accept(Attributes resource, T item);
    }

    /**
     * How deeply messages may nest, in protobuf (protobuf-java's default is 100) and in JSON:
     * OTLP itself nests 6 levels to a span's attribute (a metric's exemplar's, 8); the rest is attribute values in values.
     */
    static final int MAX_DEPTH = 64;

    private static final int RESOURCE_ITEMS = lengthDelimited(ExportShape.RESOURCE_ITEMS);
    private static final int RESOURCE = lengthDelimited(ExportShape.RESOURCE);
    private static final int SCOPE_ITEMS = lengthDelimited(ExportShape.SCOPE_ITEMS);
    private static final int ITEMS = lengthDelimited(ExportShape.ITEMS);
    /** Discards the fields this OTLP version does not know, as {@link ExportShape#parser()} does. */
    private static final Parser<Resource> RESOURCE_PARSER = DiscardUnknownFieldsParser.wrap(Resource.parser());

    private final ExportShape<T> shape;
    private final int maxItems;
    private final OtlpJsonReader json;

    ExportDecoder(ExportShape<T> shape, int maxItems) {
        this.shape = shape;
        this.maxItems = maxItems;
        this.json = new OtlpJsonReader(MAX_DEPTH, maxItems);
    }

    /**
     * Hands each item of the export to {@code each}, in order, with its resource; holds in
     * {@code held}, while it does, what the item and its resource take decoded. Decodes only the
     * items {@code decode} accepts, asked with each item's number (from 0, in the order sent)
     * before it is decoded: the others are passed over (counted against {@code maxItems}), costing no decode.
     *
     * @throws Rejection 400 when the body is not an export of this format, 413 when it holds more
     *                   than {@link #maxItems} items (thrown once the item beyond is reached), or
     *                   when what it holds could never fit its request's reservation
     */
    void forEachItem(byte[] body, OtlpFormat format, HeldBytes held, IntPredicate decode, ItemConsumer<T> each) {
        if (format == OtlpFormat.JSON) {
            json.forEachItem(body, shape, held, decode, each);
            return;
        }
        try {
            int[] items = {0};
            CodedInputStream in = within(body, 0, body.length);
            int tag;
            while ((tag = in.readTag()) != 0) {
                if (tag == RESOURCE_ITEMS) {
                    int length = lengthWithin(in);
                    int offset = in.getTotalBytesRead();
                    in.skipRawBytes(length);
                    resourceItems(body, offset, length, held, decode, each, items);
                } else if (!in.skipField(tag)) {
                    throw DecodedSize.invalidEndTag();
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw notProtobuf(e);
        } catch (IOException e) {
            throw new Rejection(Outcome.BAD_REQUEST, "the body is not an OTLP " + shape.request().getName() + " in protobuf");
        }
    }

    /**
     * One {@code ResourceSpans} (or logs, or metrics): its resource first (wherever it is), then its
     * scopes' items. Both are walked in place, twice over its bytes: passing a scope allocates
     * nothing, however many empty ones are sent (a list of them took 100 MB for a 2 MB body).
     */
    private void resourceItems(byte[] body, int offset, int length, HeldBytes held, IntPredicate decode, ItemConsumer<T> each,
                               int[] items)
            throws IOException {
        CodedInputStream in = within(body, offset, length);
        int resource = -1;
        int resourceLength = 0;
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag == RESOURCE) {
                resourceLength = lengthWithin(in);
                resource = offset + in.getTotalBytesRead(); // the last (protobuf-java would merge them; no encoder sends two)
                in.skipRawBytes(resourceLength);
            } else if (!in.skipField(tag)) {
                throw DecodedSize.invalidEndTag();
            }
        }
        long resourceBytes = 0;
        Attributes attributes = Attributes.NONE;
        if (resource >= 0) {
            resourceBytes = DecodedSize.of(body, resource, resourceLength, Resource.getDescriptor(), MAX_DEPTH - 2);
            held.take(resourceBytes);
            attributes = Attributes.of(parse(RESOURCE_PARSER, body, resource, resourceLength, MAX_DEPTH - 2).getAttributesList());
        }
        try {
            in = within(body, offset, length);
            while ((tag = in.readTag()) != 0) {
                if (tag == SCOPE_ITEMS) {
                    int outer = in.pushLimit(lengthWithin(in));
                    scopeItems(in, body, offset, attributes, held, decode, each, items);
                    in.popLimit(outer);
                } else if (!in.skipField(tag)) {
                    throw DecodedSize.invalidEndTag();
                }
            }
        } finally {
            held.giveBack(resourceBytes);
        }
    }

    /** The items of the {@code ScopeSpans} (or logs, or metrics) {@code in} is limited to; {@code in} reads {@code body} from {@code offset}. */
    private void scopeItems(CodedInputStream in, byte[] body, int offset, Attributes resource, HeldBytes held,
                            IntPredicate decode, ItemConsumer<T> each, int[] items) throws IOException {
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag != ITEMS) {
                if (!in.skipField(tag)) {
                    throw DecodedSize.invalidEndTag();
                }
                continue;
            }
            int itemLength = lengthWithin(in);
            int itemOffset = offset + in.getTotalBytesRead();
            in.skipRawBytes(itemLength);
            if (++items[0] > maxItems) {
                throw shape.tooMany(maxItems);
            }
            if (!decode.test(items[0] - 1)) {
                continue;
            }
            long itemBytes = DecodedSize.of(body, itemOffset, itemLength, shape.itemType(), MAX_DEPTH - 3);
            held.take(itemBytes);
            try {
                each.accept(resource, parse(shape.parser(), body, itemOffset, itemLength, MAX_DEPTH - 3));
            } finally {
                held.giveBack(itemBytes);
            }
        }
    }

    /** The tag of a length-delimited field (a message's): its number, then wire type 2. */
    private static int lengthDelimited(int fieldNumber) {
        return fieldNumber << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
    }

    /** {@code body[offset, offset + length)}, limited to it: a length running past it is a truncation, not its end. */
    static CodedInputStream within(byte[] body, int offset, int length) throws InvalidProtocolBufferException {
        CodedInputStream in = CodedInputStream.newInstance(body, offset, length);
        in.pushLimit(length);
        return in;
    }

    /** A length-delimited field's length, which must not run past the message {@code in} is limited to. */
    private static int lengthWithin(CodedInputStream in) throws IOException {
        int fieldLength = in.readRawVarint32();
        if (fieldLength < 0 || fieldLength > in.getBytesUntilLimit()) {
            throw DecodedSize.truncated();
        }
        return fieldLength;
    }

    private static <T> T parse(Parser<T> parser, byte[] body, int offset, int length, int maxDepth) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(body, offset, length);
        in.setRecursionLimit(maxDepth);
        T message = parser.parseFrom(in);
        in.checkLastTagWas(0);
        return message;
    }

    private Rejection notProtobuf(InvalidProtocolBufferException e) {
        // protobuf-java's own words for this one address the server's programmer (setRecursionLimit)
        String why = e.getMessage() != null && e.getMessage().contains("too many levels of nesting")
                ? "messages (attribute values in values) nest deeper than " + MAX_DEPTH + " levels" : e.getMessage();
        return new Rejection(Outcome.BAD_REQUEST, "the body is not an OTLP " + shape.request().getName() + " in protobuf: " + why);
    }
}
