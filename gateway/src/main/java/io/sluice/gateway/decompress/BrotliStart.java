package io.sluice.gateway.decompress;

import io.netty.buffer.ByteBuf;

/**
 * What a brotli stream's first bytes declare (RFC 7932 §9.1–9.2): its window, and its first
 * meta-block's length and whether it is the last. {@code org.brotli:dec} sizes its ring buffer
 * from these: the window (up to 16 MiB, whatever the output), or less when the declared lengths
 * are known to be smaller. Read here, before decoding, so the ring can be bounded and counted.
 */
record BrotliStart(int windowBits, boolean firstIsLast, long firstLength) {
    /** The bytes the decoder adds to its ring (the longest transformed dictionary word). */
    static final int RING_SLACK = 37;
    private static final int SMALLEST_FOUR_BIT_WINDOW = 18;
    private static final int LARGEST_WINDOW = 24;

    /** The stream's start, or null when its first bytes are not a valid brotli start (the decoder then says why). */
    static BrotliStart read(ByteBuf body) {
        Bits bits = new Bits(body);
        int windowBits;
        if (bits.next(1) == 0) {
            windowBits = 16;
        } else {
            int n = bits.next(3);
            if (n != 0) {
                windowBits = 17 + n;
            } else {
                int m = bits.next(3);
                if (m == 1) {
                    return null; // "large window" brotli, which this decoder does not read
                }
                windowBits = m == 0 ? 17 : 8 + m;
            }
        }
        boolean last = bits.next(1) == 1;
        if (last && bits.next(1) == 1) {
            return new BrotliStart(windowBits, true, 0); // an empty stream
        }
        int nibbles = switch (bits.next(2)) {
            case 0 -> 4;
            case 1 -> 5;
            case 2 -> 6;
            default -> 0; // a metadata block: no output, the length of what follows unknown here
        };
        if (nibbles == 0 || bits.overrun()) {
            return bits.overrun() ? null : new BrotliStart(windowBits, false, 0);
        }
        long length = bits.next(4 * nibbles) + 1L;
        return bits.overrun() ? null : new BrotliStart(windowBits, last, length);
    }

    /**
     * The window bits to decode with when the output may be at most {@code maxOutput} bytes: the
     * declared ones, or fewer when those reach further back than any such output can (a backward
     * distance never exceeds the output so far, so the smaller window reads such a stream alike:
     * brotli reads a distance beyond {@code min(window - 16, output so far)} as a dictionary word).
     * Only windows written in four bits (2^18 to 2^24) are lowered, to another such: the stream's
     * later bits stay where they are.
     */
    int boundedWindowBits(int maxOutput) {
        if (windowBits < SMALLEST_FOUR_BIT_WINDOW) {
            return windowBits;
        }
        for (int bits = SMALLEST_FOUR_BIT_WINDOW; bits < windowBits; bits++) {
            if ((1L << bits) - 16 >= maxOutput) {
                return bits;
            }
        }
        return windowBits;
    }

    /**
     * The most the decoder's ring buffer (and its copy while it grows) may take with this window:
     * the window when more meta-blocks may follow (each may declare up to 16 MiB ahead of its
     * output), about twice the output when the first is the last, and the previous ring (at most
     * half) while it is copied into a larger one.
     */
    long ringBytes(int windowBits) {
        long window = 1L << windowBits;
        if (firstIsLast) {
            return Math.min(window, 2 * Long.highestOneBit(Math.max(1, firstLength))) + RING_SLACK;
        }
        return window + window / 2 + 2 * RING_SLACK;
    }

    /** The stream's first byte with its window written as {@code windowBits} (both of four bits). */
    static int withWindow(int firstByte, int windowBits) {
        if (windowBits < SMALLEST_FOUR_BIT_WINDOW || windowBits > LARGEST_WINDOW || (firstByte & 1) == 0
                || ((firstByte >> 1) & 7) == 0) {
            return firstByte;
        }
        return (firstByte & 0xF0) | ((windowBits - 17) << 1) | 1;
    }

    /** Reads bits in brotli's order (least significant first) from the body's first bytes, without consuming them. */
    private static final class Bits {
        private final ByteBuf body;
        private int position;
        private boolean overrun;

        Bits(ByteBuf body) {
            this.body = body;
        }

        int next(int count) {
            int value = 0;
            for (int i = 0; i < count; i++, position++) {
                int index = position >> 3;
                if (index >= body.readableBytes()) {
                    overrun = true;
                    return value;
                }
                value |= ((body.getUnsignedByte(body.readerIndex() + index) >> (position & 7)) & 1) << i;
            }
            return value;
        }

        boolean overrun() {
            return overrun;
        }
    }
}
