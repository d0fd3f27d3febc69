package io.sluice.processor.topology;

import java.io.ByteArrayOutputStream;

import org.apache.kafka.common.errors.SerializationException;

/** Unsigned LEB128 varints, the processor's compact store and repartition formats' numbers. */
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

    static void write(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    /** Reads bytes in order, refusing a value cut short or longer than 64 bits. */
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

        /** A count that must fit an int, such as a length or a partition. */
        int nextInt() {
            long value = next();
            if (value > Integer.MAX_VALUE) {
                throw new SerializationException(what + " hold a length or partition of " + value);
            }
            return (int) value;
        }

        /** The next {@code length} bytes as they are. */
        byte[] nextBytes(int length) {
            if (length > bytes.length - at) {
                throw new SerializationException(what + " are cut short");
            }
            byte[] copy = java.util.Arrays.copyOfRange(bytes, at, at + length);
            at += length;
            return copy;
        }

        /** The bytes left, as they are. */
        byte[] rest() {
            return nextBytes(bytes.length - at);
        }

        void expectEnd() {
            if (at != bytes.length) {
                throw new SerializationException(what + " have " + (bytes.length - at) + " bytes too many");
            }
        }
    }
}
