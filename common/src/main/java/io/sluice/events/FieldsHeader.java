package io.sluice.events;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The header in which the gateway sends on the fields it read from an event's JSON while
 * validating it ({@link TransactionFields}, {@link ErrorFields}), so that the processor need not
 * parse the JSON again. Optional: a record without it (from an older gateway, or whose fields
 * would take more than {@link #MAX_BYTES}), or with one of another {@link #VERSION}, is read from
 * its JSON, the same way.
 *
 * <p>The value: the version, the kind, then each field as a presence byte and, when present, its
 * text in Java's modified UTF-8 ({@link DataOutputStream#writeUTF}), which keeps every string
 * exactly, lone surrogates too: the processor then makes it fit its column as it would the JSON's.
 */
public final class FieldsHeader {
    public static final String NAME = "sluice.fields";
    /**
     * Raise it whenever {@link TransactionFields#of} or {@link ErrorFields#of} reads an event
     * differently (also through {@link SentryFields}, or a new Jackson): the processor then reads
     * the JSON of records from gateways that read it the old way (a replay, or a recomputation with
     * {@code SLUICE_PROCESSOR_GENERATION}), instead of their header. FieldsReadingTest pins what
     * this version reads from a set of events, and fails when the reading changes under it.
     */
    static final byte VERSION = 4;
    static final byte TRANSACTION = 'T';
    static final byte ERROR = 'E';
    /**
     * Most bytes the header takes (the gateway's record has room for 64 KiB besides the JSON); nor
     * does it take more than the event's JSON, so that what the gateway holds while an envelope's
     * events wait to be published stays within twice what its in-flight budget counts. Fields
     * that do not fit go without it.
     */
    static final int MAX_BYTES = 16 * 1024;

    private FieldsHeader() {
    }

    /** The header's value; null when the fields take more than {@link #MAX_BYTES} or {@code jsonBytes}. */
    static byte[] encode(int jsonBytes, byte kind, String... values) {
        int limit = Math.min(MAX_BYTES, jsonBytes);
        long least = 2;
        for (String value : values) {
            least += value == null ? 1 : 3 + value.length(); // a char takes 1 to 3 bytes
        }
        if (least > limit) {
            return null; // too large before any is written
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(least + least / 4, limit));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(kind);
            for (String value : values) {
                out.writeBoolean(value != null);
                if (value != null) {
                    out.writeUTF(value);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory", e);
        }
        return bytes.size() > limit ? null : bytes.toByteArray();
    }

    /** Why a record's fields were not read from its header (so are read from its JSON); the tag names it in metrics. */
    public enum Unread {
        /** None: from a gateway older than the header, or whose fields did not fit it ({@link #MAX_BYTES}, the JSON's size). */
        NO_HEADER("no_header"),
        /** Of another {@link #VERSION}: from a gateway that reads events another way (a rolling upgrade, a replay). */
        OTHER_VERSION("other_version"),
        /** Of this version but not readable as the record's kind (malformed, another kind, a status no gateway writes). */
        UNREADABLE("unreadable");

        private final String tag;

        Unread(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /**
     * Why these headers held no fields to read: call it when {@link TransactionFields#fromHeader}
     * or {@link ErrorFields#fromHeader} gave null (so rarely, once a rolling upgrade is done).
     */
    public static Unread whyUnread(Headers headers) {
        Header header = headers.lastHeader(NAME);
        if (header == null) {
            return Unread.NO_HEADER;
        }
        byte[] value = header.value();
        return value != null && value.length > 0 && value[0] != VERSION ? Unread.OTHER_VERSION : Unread.UNREADABLE;
    }

    /** The {@code count} fields of the record's header of {@code kind}; null when it has none, of another version, or malformed. */
    static String[] decode(Headers headers, byte kind, int count) {
        Header header = headers.lastHeader(NAME);
        byte[] value = header == null ? null : header.value();
        if (value == null || value.length < 2 || value[0] != VERSION || value[1] != kind) {
            return null;
        }
        String[] fields = new String[count];
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value, 2, value.length - 2))) {
            for (int i = 0; i < count; i++) {
                fields[i] = in.readBoolean() ? in.readUTF() : null;
            }
            return in.available() == 0 ? fields : null;
        } catch (IOException malformed) {
            return null;
        }
    }
}
