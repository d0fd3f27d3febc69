package io.sluice.gateway.decompress;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import org.brotli.dec.BrotliInputStream;

import com.github.luben.zstd.ZstdInputStream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Turns the body as sent into the JSON bytes: decompresses per {@code Content-Encoding}
 * (identity, gzip, deflate, zstd, br), or gzip when the body starts with gzip's magic bytes
 * (the API description names no header for it). Output is bounded while decompressing, so a
 * bomb is refused as soon as its output would pass {@code maxDecompressedBytes}. The
 * decompressed bytes are memory too: they are taken from the request's in-flight reservation as
 * they grow, so a small compressed body cannot hold much more than the budget counts. So is
 * brotli's ring buffer (up to the window the stream declares, 16 MiB): the window is lowered to
 * what the limit needs, and the ring is taken from the reservation while the body is decoded.
 */
public final class BodyDecoder {
    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;
    private static final int CHUNK = 16 * 1024;

    private final int maxDecompressedBytes;

    public BodyDecoder(int maxDecompressedBytes) {
        this.maxDecompressedBytes = maxDecompressedBytes;
    }

    /** Decodes without counting the decompressed bytes anywhere (tests, tools). */
    public byte[] decode(ByteBuf body, String contentEncoding) {
        return decode(body, contentEncoding, null);
    }

    /**
     * @param reservation the request's share of the in-flight budget, extended by the decompressed
     *                    size (503 {@code overloaded} when that does not fit); null to count nothing
     */
    public byte[] decode(ByteBuf body, String contentEncoding, InFlightBudget.Reservation reservation) {
        String encoding = contentEncoding == null ? "" : contentEncoding.strip().toLowerCase(Locale.ROOT);
        if (encoding.isEmpty() || encoding.equals("identity")) {
            encoding = startsWithGzipMagic(body) ? "gzip" : "identity";
        }
        if (encoding.equals("identity")) {
            return plain(body);
        }
        BrotliStart brotli = encoding.equals("br") ? BrotliStart.read(body) : null;
        if (brotli != null && brotli.firstIsLast() && brotli.firstLength() > maxDecompressedBytes) {
            throw tooLarge(); // its only meta-block says so: no need to decode it
        }
        // The decoder's ring buffer, counted while it decodes (taken before: a refusal here took nothing).
        long ring = brotli == null || reservation == null ? 0 : brotli.ringBytes(brotli.boundedWindowBits(maxDecompressedBytes));
        if (ring > 0) {
            reservation.extend(ring);
        }
        try (InputStream compressed = new ByteBufInputStream(body.duplicate());
             InputStream decompressed = brotli != null ? brotli(compressed, brotli) : decompressing(encoding, compressed, body)) {
            return readBounded(decompressed, reservation);
        } catch (IOException | RuntimeException e) {
            if (e instanceof Rejection rejection) {
                throw rejection;
            }
            throw new Rejection(Outcome.CORRUPT_BODY,
                    "the body is not valid " + encoding + " data (" + e.getClass().getSimpleName() + ")");
        } finally {
            if (ring > 0) {
                reservation.giveBack(ring); // garbage once decoded; what was decoded stays counted
            }
        }
    }

    private static InputStream decompressing(String encoding, InputStream in, ByteBuf body) throws IOException {
        return switch (encoding) {
            case "gzip", "x-gzip" -> new GZIPInputStream(in, CHUNK);
            // HTTP's "deflate" is zlib-wrapped, but many clients send raw deflate: accept both.
            case "deflate" -> new InflaterInputStream(in, new Inflater(!looksLikeZlib(body)), CHUNK);
            case "zstd" -> new ZstdInputStream(in);
            case "br" -> new BrotliInputStream(in); // not a valid brotli start: the decoder says why (400)
            default -> throw new Rejection(Outcome.UNSUPPORTED_ENCODING,
                    "Content-Encoding '" + encoding + "' is not supported; use identity, gzip, deflate, zstd or br");
        };
    }

    /**
     * A brotli decoder whose window is no larger than the output this decoder allows needs
     * ({@link BrotliStart#boundedWindowBits}): a stream declaring 16 MiB for a 1 MiB body decodes
     * alike in 2 MiB.
     */
    private InputStream brotli(InputStream compressed, BrotliStart start) throws IOException {
        int first = BrotliStart.withWindow(compressed.read(), start.boundedWindowBits(maxDecompressedBytes));
        return new BrotliInputStream(new SequenceInputStream(new ByteArrayInputStream(new byte[] {(byte) first}), compressed));
    }

    private byte[] plain(ByteBuf body) {
        if (body.readableBytes() > maxDecompressedBytes) {
            throw tooLarge();
        }
        byte[] bytes = new byte[body.readableBytes()];
        body.getBytes(body.readerIndex(), bytes);
        return bytes;
    }

    private byte[] readBounded(InputStream in, InFlightBudget.Reservation reservation) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(CHUNK);
        byte[] chunk = new byte[CHUNK];
        long counted = 0;
        int read;
        while ((read = in.read(chunk)) >= 0) {
            if (out.size() + read > maxDecompressedBytes) {
                throw tooLarge();
            }
            long need = out.size() + read;
            if (reservation != null && need > counted) {
                // Grows in doubling steps, as the buffer does: a few reservations per body, not one
                // per chunk; when a step does not fit, exactly what is needed (413 when it never could).
                long more = Math.min(Math.max(need, 2 * counted), maxDecompressedBytes) - counted;
                if (!reservation.tryExtend(more)) {
                    more = need - counted;
                    reservation.extend(more);
                }
                counted += more;
            }
            out.write(chunk, 0, read);
        }
        return out.toByteArray();
    }

    private static boolean startsWithGzipMagic(ByteBuf body) {
        int start = body.readerIndex();
        return body.readableBytes() >= 2
                && body.getUnsignedByte(start) == GZIP_MAGIC_1 && body.getUnsignedByte(start + 1) == GZIP_MAGIC_2;
    }

    /** RFC 1950 header: compression method 8 and a check value that makes the first 16 bits divisible by 31. */
    private static boolean looksLikeZlib(ByteBuf body) {
        if (body.readableBytes() < 2) {
            return false;
        }
        int cmf = body.getUnsignedByte(body.readerIndex());
        int flg = body.getUnsignedByte(body.readerIndex() + 1);
        return (cmf & 0x0f) == 8 && ((cmf << 8) | flg) % 31 == 0;
    }

    private Rejection tooLarge() {
        return new Rejection(Outcome.BODY_TOO_LARGE,
                "the decompressed body is larger than " + maxDecompressedBytes + " bytes");
    }
}
