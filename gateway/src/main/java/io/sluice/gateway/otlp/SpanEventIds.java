package io.sluice.gateway.otlp;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.google.protobuf.ByteString;

/**
 * The event ids of what a span becomes, derived from its trace and span ids: an exporter that
 * sends the same span again (a retried export) sends the same events, which the processor
 * counts once. 128 bits of SHA-256 over the ids, the kind of event and its position among the
 * span's exception events.
 */
final class SpanEventIds {
    private static final byte TRANSACTION = 't';
    private static final byte EXCEPTION = 'e';

    private SpanEventIds() {
    }

    /** The id of the transaction a server span is. */
    static String transaction(ByteString traceId, ByteString spanId) {
        return id(traceId, spanId, TRANSACTION, 0);
    }

    /** The id of the error a span's {@code index}th {@code exception} event is (counting its events of that name only). */
    static String exception(ByteString traceId, ByteString spanId, int index) {
        return id(traceId, spanId, EXCEPTION, index);
    }

    private static String id(ByteString traceId, ByteString spanId, byte kind, int index) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException everyJavaHasIt) {
            throw new IllegalStateException(everyJavaHasIt);
        }
        sha256.update(traceId.toByteArray());
        sha256.update(spanId.toByteArray());
        sha256.update(kind);
        sha256.update(new byte[] {(byte) (index >>> 24), (byte) (index >>> 16), (byte) (index >>> 8), (byte) index});
        return HexFormat.of().formatHex(sha256.digest(), 0, 16);
    }
}
