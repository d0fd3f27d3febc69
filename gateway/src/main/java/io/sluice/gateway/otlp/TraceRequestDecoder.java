package io.sluice.gateway.otlp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DiscardUnknownFieldsParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import com.google.protobuf.WireFormat;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.gateway.admit.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Reads the spans of an OTLP/HTTP trace export, a body already decompressed and within the size
 * limit, in either encoding. What cannot be read is a 400 naming why (a length that runs past
 * the end, invalid UTF-8, nesting deeper than {@link #MAX_DEPTH}, JSON that is not OTLP's); an
 * export of more than {@code maxSpans} spans is a 413, since the exporter must send smaller batches.
 *
 * <p>The spans are handed out one at a time, the export never held decoded whole: protobuf-java's
 * objects take several times the bytes they were sent in. A protobuf export is walked by hand
 * down to its spans, each decoded alone (its estimated size held meanwhile, {@link DecodedSize});
 * a JSON export is read a span at a time too ({@link OtlpJsonReader}).
 */
public final class TraceRequestDecoder {
    /**
     * How deeply messages may nest, in protobuf (protobuf-java's default is 100) and in JSON:
     * OTLP itself nests 6 levels to a span's attribute; the rest is attribute values in values.
     */
    static final int MAX_DEPTH = 64;

    private static final int RESOURCE_SPANS = lengthDelimited(ExportTraceServiceRequest.RESOURCE_SPANS_FIELD_NUMBER);
    private static final int RESOURCE = lengthDelimited(ResourceSpans.RESOURCE_FIELD_NUMBER);
    private static final int SCOPE_SPANS = lengthDelimited(ResourceSpans.SCOPE_SPANS_FIELD_NUMBER);
    private static final int SPANS = lengthDelimited(ScopeSpans.SPANS_FIELD_NUMBER);

    /*
     * Parsers that discard the fields this OTLP version does not know, in the message and all it
     * holds: kept, each takes about 144 bytes however small it was sent (a 4.7 MB span of a
     * million one-byte fields took 144 MB), and nothing reads them.
     */
    private static final Parser<Resource> RESOURCE_PARSER = DiscardUnknownFieldsParser.wrap(Resource.parser());
    private static final Parser<Span> SPAN_PARSER = DiscardUnknownFieldsParser.wrap(Span.parser());

    private final int maxSpans;
    private final OtlpJsonReader json;

    public TraceRequestDecoder(int maxSpans) {
        this.maxSpans = maxSpans;
        this.json = new OtlpJsonReader(MAX_DEPTH, maxSpans);
    }

    /**
     * Hands each span of the export to {@code each}, in order, with its resource; holds in
     * {@code held}, while it does, what the span and its resource take decoded.
     *
     * @throws Rejection 400 when the body is not an export of this format, 413 when it holds more
     *                   than {@link #maxSpans} spans (thrown once the span beyond is reached), or
     *                   when what it holds could never fit its request's reservation
     */
    void forEachSpan(byte[] body, OtlpFormat format, HeldBytes held, Consumer<OtlpSpan> each) {
        forEachSpan(body, format, held, span -> true, each);
    }

    /**
     * As {@link #forEachSpan(byte[], OtlpFormat, HeldBytes, Consumer)}, decoding only the spans
     * {@code decode} accepts, asked with each span's number (from 0, in the order sent) before it
     * is decoded: the others are passed over (counted against {@code maxSpans}), costing no decode.
     */
    void forEachSpan(byte[] body, OtlpFormat format, HeldBytes held, IntPredicate decode, Consumer<OtlpSpan> each) {
        if (format == OtlpFormat.JSON) {
            json.forEachSpan(body, held, decode, each);
            return;
        }
        try {
            int[] spans = {0};
            CodedInputStream in = within(body, 0, body.length);
            int tag;
            while ((tag = in.readTag()) != 0) {
                if (tag == RESOURCE_SPANS) {
                    int length = lengthWithin(in);
                    int offset = in.getTotalBytesRead();
                    in.skipRawBytes(length);
                    resourceSpans(body, offset, length, held, decode, each, spans);
                } else if (!in.skipField(tag)) {
                    throw DecodedSize.invalidEndTag();
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw notProtobuf(e);
        } catch (IOException e) {
            throw new Rejection(Outcome.BAD_REQUEST, "the body is not an OTLP ExportTraceServiceRequest in protobuf");
        }
    }

    /**
     * One {@code ResourceSpans}: its resource first (wherever it is), then its scopes' spans. Both
     * are walked in place, twice over its bytes: passing a scope allocates nothing, however many
     * empty ones are sent (a list of them took 100 MB for a 2 MB body).
     */
    private void resourceSpans(byte[] body, int offset, int length, HeldBytes held, IntPredicate decode, Consumer<OtlpSpan> each,
                               int[] spans)
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
                if (tag == SCOPE_SPANS) {
                    int outer = in.pushLimit(lengthWithin(in));
                    scopeSpans(in, body, offset, attributes, held, decode, each, spans);
                    in.popLimit(outer);
                } else if (!in.skipField(tag)) {
                    throw DecodedSize.invalidEndTag();
                }
            }
        } finally {
            held.giveBack(resourceBytes);
        }
    }

    /** The spans of the {@code ScopeSpans} {@code in} is limited to; {@code in} reads {@code body} from {@code offset}. */
    private void scopeSpans(CodedInputStream in, byte[] body, int offset, Attributes resource, HeldBytes held,
                            IntPredicate decode, Consumer<OtlpSpan> each, int[] spans) throws IOException {
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag != SPANS) {
                if (!in.skipField(tag)) {
                    throw DecodedSize.invalidEndTag();
                }
                continue;
            }
            int spanLength = lengthWithin(in);
            int spanOffset = offset + in.getTotalBytesRead();
            in.skipRawBytes(spanLength);
            if (++spans[0] > maxSpans) {
                throw tooManySpans(maxSpans);
            }
            if (!decode.test(spans[0] - 1)) {
                continue;
            }
            long spanBytes = DecodedSize.of(body, spanOffset, spanLength, Span.getDescriptor(), MAX_DEPTH - 3);
            held.take(spanBytes);
            try {
                each.accept(new OtlpSpan(resource, parse(SPAN_PARSER, body, spanOffset, spanLength, MAX_DEPTH - 3)));
            } finally {
                held.giveBack(spanBytes);
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

    private static Rejection notProtobuf(InvalidProtocolBufferException e) {
        // protobuf-java's own words for this one address the server's programmer (setRecursionLimit)
        String why = e.getMessage() != null && e.getMessage().contains("too many levels of nesting")
                ? "messages (attribute values in values) nest deeper than " + MAX_DEPTH + " levels" : e.getMessage();
        return new Rejection(Outcome.BAD_REQUEST, "the body is not an OTLP ExportTraceServiceRequest in protobuf: " + why);
    }

    static Rejection tooManySpans(int maxSpans) {
        return new Rejection(Outcome.BODY_TOO_LARGE, "an export may hold at most " + maxSpans
                + " spans; send smaller batches (an SDK's batch span processor sends 512 at most by default, a Collector's "
                + "batch processor 8,192 and a little more: set its send_batch_max_size)");
    }
}
