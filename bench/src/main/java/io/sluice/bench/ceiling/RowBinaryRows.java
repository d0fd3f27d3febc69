package io.sluice.bench.ceiling;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Rows in ClickHouse's RowBinary format, for the bulk-insert ceiling: each column's value in
 * table order, little-endian, strings as a LEB128 length and their UTF-8 bytes.
 */
public final class RowBinaryRows {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);

    /** String, and LowCardinality(String), which RowBinary writes the same way. */
    RowBinaryRows string(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        long length = bytes.length;
        do {
            int low = (int) (length & 0x7F);
            length >>>= 7;
            out.write(length == 0 ? low : low | 0x80);
        } while (length != 0);
        out.writeBytes(bytes);
        return this;
    }

    /** DateTime64(3): milliseconds since the epoch as Int64. */
    RowBinaryRows dateTime64Millis(long millis) {
        return littleEndian(millis, 8);
    }

    RowBinaryRows bool(boolean value) {
        out.write(value ? 1 : 0);
        return this;
    }

    /** Nullable(UInt16) holding a value: a 0 "not null" byte, then the value. */
    RowBinaryRows nullableUInt16(int value) {
        out.write(0);
        return littleEndian(value, 2);
    }

    /** Nullable(UInt16): a 1 "null" byte alone, or a 0 byte and the value. */
    RowBinaryRows nullableUInt16(Long value) {
        if (value == null) {
            out.write(1);
            return this;
        }
        return nullableUInt16(value.intValue());
    }

    /** Nullable(Float64): a 1 "null" byte alone, or a 0 byte and the IEEE 754 bits. */
    RowBinaryRows nullableFloat64(Double value) {
        if (value == null) {
            out.write(1);
            return this;
        }
        out.write(0);
        return littleEndian(Double.doubleToLongBits(value), 8);
    }

    /** Float64: the IEEE 754 bits. */
    RowBinaryRows float64(double value) {
        return littleEndian(Double.doubleToLongBits(value), 8);
    }

    RowBinaryRows uint16(long value) {
        return littleEndian(value, 2);
    }

    RowBinaryRows uint32(long value) {
        return littleEndian(value, 4);
    }

    RowBinaryRows uint64(long value) {
        return littleEndian(value, 8);
    }

    int size() {
        return out.size();
    }

    public byte[] takeBytes() {
        byte[] bytes = out.toByteArray();
        out.reset();
        return bytes;
    }

    private RowBinaryRows littleEndian(long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (value >>> (8 * i)) & 0xFF);
        }
        return this;
    }
}
