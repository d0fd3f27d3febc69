package io.sluice.events;

import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;

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
    static final byte VERSION = 5;
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
        int[] lengths = new int[values.length];
        long size = 2;
        for (int i = 0; i < values.length; i++) {
            lengths[i] = values[i] == null ? 0 : modifiedUtf8Length(values[i]);
            size += values[i] == null ? 1 : 3 + lengths[i];
            if (size > limit) {
                return null;
            }
        }
        byte[] header = new byte[(int) size];
        header[0] = VERSION;
        header[1] = kind;
        int at = 2;
        for (int i = 0; i < values.length; i++) {
            header[at++] = (byte) (values[i] == null ? 0 : 1);
            if (values[i] != null) {
                at = writeModifiedUtf8(values[i], lengths[i], header, at);
            }
        }
        return header;
    }

    /*
     * Java's modified UTF-8, written and read here byte for byte as DataOutputStream.writeUTF and
     * DataInputStream.readUTF do (FieldsHeaderTest holds them to it), without their streams and
     * copies: the header is written for every event on the gateway's event loops and read for
     * every record by the processor.
     */

    private static int modifiedUtf8Length(String value) {
        int length = value.length();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x80 || c == 0) {
                length += c >= 0x800 ? 2 : 1;
            }
        }
        return length;
    }

    /** Writes the value's length in modified UTF-8 (two bytes), then its bytes, at {@code at}: the position after it. */
    private static int writeModifiedUtf8(String value, int length, byte[] into, int at) {
        into[at++] = (byte) (length >>> 8);
        into[at++] = (byte) length;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != 0 && c < 0x80) {
                into[at++] = (byte) c;
            } else if (c >= 0x800) {
                into[at++] = (byte) (0xE0 | (c >> 12));
                into[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                into[at++] = (byte) (0x80 | (c & 0x3F));
            } else {
                into[at++] = (byte) (0xC0 | (c >> 6));
                into[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return at;
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
        int at = 2;
        for (int i = 0; i < count; i++) {
            if (at >= value.length) {
                return null;
            }
            if (value[at++] == 0) { // absent; any other byte is present, as readBoolean takes it
                continue;
            }
            if (at + 2 > value.length) {
                return null;
            }
            int length = (value[at] & 0xFF) << 8 | (value[at + 1] & 0xFF);
            at += 2;
            if (at + length > value.length) {
                return null;
            }
            fields[i] = readModifiedUtf8(value, at, length);
            if (fields[i] == null) {
                return null;
            }
            at += length;
        }
        return at == value.length ? fields : null;
    }

    /** The text of {@code length} bytes of modified UTF-8 at {@code from}; null when malformed. */
    private static String readModifiedUtf8(byte[] bytes, int from, int length) {
        int end = from + length;
        int ascii = from;
        while (ascii < end && bytes[ascii] > 0) {
            ascii++;
        }
        if (ascii == end) {
            return new String(bytes, from, length, StandardCharsets.ISO_8859_1); // all ASCII: the common case
        }
        char[] chars = new char[length];
        int count = 0;
        for (int i = from; i < end; ) {
            int first = bytes[i] & 0xFF;
            if (first < 0x80) {
                chars[count++] = (char) first;
                i++;
            } else if ((first & 0xE0) == 0xC0) {
                if (i + 2 > end || (bytes[i + 1] & 0xC0) != 0x80) {
                    return null;
                }
                chars[count++] = (char) (((first & 0x1F) << 6) | (bytes[i + 1] & 0x3F));
                i += 2;
            } else if ((first & 0xF0) == 0xE0) {
                if (i + 3 > end || (bytes[i + 1] & 0xC0) != 0x80 || (bytes[i + 2] & 0xC0) != 0x80) {
                    return null;
                }
                chars[count++] = (char) (((first & 0x0F) << 12) | ((bytes[i + 1] & 0x3F) << 6) | (bytes[i + 2] & 0x3F));
                i += 3;
            } else {
                return null;
            }
        }
        return new String(chars, 0, count);
    }
}
