package io.sluice.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Turns the body as sent into the JSON bytes: decompresses per {@code Content-Encoding}, or
 * gzip when the body starts with gzip's magic bytes (the API description names no header for
 * it). Output is bounded while decompressing, so a bomb is refused after at most
 * {@code maxDecompressedBytes} of work and memory.
 */
public final class BodyDecoder {
    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;

    private final int maxDecompressedBytes;

    public BodyDecoder(int maxDecompressedBytes) {
        this.maxDecompressedBytes = maxDecompressedBytes;
    }

    public byte[] decode(ByteBuf body, String contentEncoding) {
        String encoding = contentEncoding == null ? "identity" : contentEncoding.strip().toLowerCase(java.util.Locale.ROOT);
        if (encoding.equals("identity") || encoding.isEmpty()) {
            encoding = startsWithGzipMagic(body) ? "gzip" : "identity";
        }
        return switch (encoding) {
            case "identity" -> plain(body);
            case "gzip", "x-gzip" -> inflate(body, "gzip", true);
            case "deflate" -> inflate(body, "deflate", false);
            default -> throw new Rejection(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_encoding",
                    "Content-Encoding '" + contentEncoding + "' is not supported; use identity, gzip or deflate");
        };
    }

    private byte[] plain(ByteBuf body) {
        if (body.readableBytes() > maxDecompressedBytes) {
            throw tooLarge();
        }
        byte[] bytes = new byte[body.readableBytes()];
        body.getBytes(body.readerIndex(), bytes);
        return bytes;
    }

    private byte[] inflate(ByteBuf body, String encoding, boolean gzip) {
        try (InputStream in = gzip ? new GZIPInputStream(new ByteBufInputStream(body.duplicate()), 8192)
                : new InflaterInputStream(new ByteBufInputStream(body.duplicate()), new java.util.zip.Inflater(), 8192)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxDecompressedBytes, body.readableBytes() * 8 + 64));
            byte[] chunk = new byte[8192];
            int read;
            while ((read = in.read(chunk)) >= 0) {
                if (out.size() + read > maxDecompressedBytes) {
                    throw tooLarge();
                }
                out.write(chunk, 0, read);
            }
            return out.toByteArray();
        } catch (ZipException | java.io.EOFException e) {
            throw new Rejection(HttpResponseStatus.BAD_REQUEST, "corrupt_body",
                    "the body is not valid " + encoding + " data: " + e.getMessage());
        } catch (IOException e) {
            throw new Rejection(HttpResponseStatus.BAD_REQUEST, "corrupt_body",
                    "the " + encoding + " body cannot be read: " + e.getMessage());
        }
    }

    private static boolean startsWithGzipMagic(ByteBuf body) {
        int start = body.readerIndex();
        return body.readableBytes() >= 2
                && body.getUnsignedByte(start) == GZIP_MAGIC_1 && body.getUnsignedByte(start + 1) == GZIP_MAGIC_2;
    }

    private Rejection tooLarge() {
        return new Rejection(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body_too_large",
                "the decompressed body is larger than " + maxDecompressedBytes + " bytes");
    }
}
