package io.sluice.processor.topology;

import org.apache.kafka.common.errors.SerializationException;

/** Unsigned LEB128 varints, the window stores' compact counts: 7 bits a byte, small counts in one byte. */
final class Varints {
    private Varints() {
    }

    static int size(long value) {
        int size = 1;
        while ((value & ~0x7FL) != 0) {
            size++;
            value >>>= 7;
        }
        return size;
    }

    /** Writes {@code value} at {@code at}; returns the position after it. */
    static int write(byte[] bytes, int at, long value) {
        while ((value & ~0x7FL) != 0) {
            bytes[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[at++] = (byte) value;
        return at;
    }

    /** Reads varints one after the other. */
    static final class Reader {
        private final byte[] bytes;
        private final String what;
        private int at;

        Reader(byte[] bytes, int at, String what) {
            this.bytes = bytes;
            this.at = at;
            this.what = what;
        }

        long next() {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                if (at >= bytes.length || shift > 63) {
                    throw new SerializationException(what + " are cut short or malformed");
                }
                byte b = bytes[at++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
        }

        void end() {
            if (at != bytes.length) {
                throw new SerializationException(what + " have " + (bytes.length - at) + " bytes too many");
            }
        }
    }
}
