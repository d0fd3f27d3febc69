package io.sluice.gateway.otlp;

import java.io.IOException;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;

/**
 * The heap a message takes once decoded by protobuf-java, told from its encoding before it is
 * decoded (a walk over its fields, allocating nothing): a fixed cost per message and per field,
 * plus the field's bytes. Every field is charged, of every wire type, known or not: a number is
 * held in its message, and an unknown field is not kept ({@link ExportDecoder} discards
 * them), but a field charged nothing is a field a client can send a million of for free, and a
 * parser that keeps them takes about 144 bytes each. On the wire an attribute with an empty value takes 4
 * bytes; decoded, a {@code KeyValue}, an {@code AnyValue} and a key string take about 120: the
 * decoded form is not a bounded multiple of the encoded one, so it is estimated from the
 * encoding, and that estimate is what the request holds of the in-flight budget.
 */
final class DecodedSize {
    /** A message object with its fields, its slot in a list and the list's spare room. */
    static final long MESSAGE_BYTES = 64;
    /** A string or bytes object and its array, besides the characters (one byte each, or two for text beyond Latin-1). */
    static final long FIELD_BYTES = 56;

    private DecodedSize() {
    }

    /**
     * The estimate for the message of {@code type} encoded in {@code body[offset, offset + length)}.
     *
     * @param maxDepth messages nested at most so deep within it
     * @throws InvalidProtocolBufferException when a length runs past its message, or messages nest deeper than {@code maxDepth}
     */
    static long of(byte[] body, int offset, int length, Descriptor type, int maxDepth) throws IOException {
        return of(ExportDecoder.within(body, offset, length), type, maxDepth);
    }

    private static long of(CodedInputStream in, Descriptor type, int depthLeft) throws IOException {
        long bytes = MESSAGE_BYTES;
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int start = in.getTotalBytesRead();
                if (!in.skipField(tag)) {
                    throw invalidEndTag();
                }
                bytes += FIELD_BYTES + in.getTotalBytesRead() - start;
                continue;
            }
            int length = in.readRawVarint32();
            FieldDescriptor field = type.findFieldByNumber(WireFormat.getTagFieldNumber(tag));
            if (field != null && field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                if (depthLeft == 0) {
                    throw new InvalidProtocolBufferException("Protocol message had too many levels of nesting");
                }
                int outer = in.pushLimit(length);
                bytes += of(in, field.getMessageType(), depthLeft - 1);
                in.popLimit(outer);
            } else {
                in.skipRawBytes(length);
                bytes += FIELD_BYTES + length;
            }
        }
        return bytes;
    }

    /** As protobuf-java words it (its own factory methods are not public). */
    static InvalidProtocolBufferException truncated() {
        return new InvalidProtocolBufferException("While parsing a protocol message, the input ended unexpectedly in the middle of a "
                + "field: it was truncated, or an embedded message misreported its own length");
    }

    static InvalidProtocolBufferException invalidEndTag() {
        return new InvalidProtocolBufferException("Protocol message end-group tag did not match expected tag");
    }
}
