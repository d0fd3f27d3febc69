package io.sluice.gateway.otlp;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.logs.v1.LogRecord;
import io.sluice.gateway.validate.EventId;

/**
 * The event ids of what a span or a log record becomes, derived from what was sent: an exporter
 * that sends the same span or record again (a retried export) sends the same events, which the
 * processor counts once. 128 bits of SHA-256 over a span's ids, the kind of event and its
 * position among the span's exception events; or over the log record, whole (it has no id of its
 * own, and its trace and span ids, when it has them, are shared by the span's other records).
 */
final class SpanEventIds {
    private static final byte TRANSACTION = 't';
    private static final byte EXCEPTION = 'e';
    private static final byte LOG_RECORD = 'l';

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

    /** The id of the error a log record is: its encoding (unknown fields discarded, so JSON's and protobuf's agree). */
    static String logRecord(LogRecord record) {
        return EventId.derived(LOG_RECORD, record.toByteArray()).hex();
    }

    private static String id(ByteString traceId, ByteString spanId, byte kind, int index) {
        MessageDigest sha256 = sha256();
        sha256.update(traceId.toByteArray());
        sha256.update(spanId.toByteArray());
        sha256.update(kind);
        sha256.update(new byte[] {(byte) (index >>> 24), (byte) (index >>> 16), (byte) (index >>> 8), (byte) index});
        return HexFormat.of().formatHex(sha256.digest(), 0, 16);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException everyJavaHasIt) {
            throw new IllegalStateException(everyJavaHasIt);
        }
    }
}
