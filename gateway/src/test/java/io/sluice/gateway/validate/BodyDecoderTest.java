package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import org.junit.jupiter.api.Test;

import com.github.luben.zstd.Zstd;

import io.netty.buffer.Unpooled;
import io.sluice.gateway.admit.Rejection;

class BodyDecoderTest {
    private static final byte[] JSON = "{\"transaction\": \"GET /\"}".getBytes(StandardCharsets.UTF_8);
    private static final BodyDecoder DECODER = new BodyDecoder(1024);

    @Test
    void rawDeflateWithoutZlibHeaderIsDecodedToo() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream raw = new DeflaterOutputStream(out, new Deflater(Deflater.DEFAULT_COMPRESSION, true))) {
            raw.write(JSON);
        }
        assertArrayEquals(JSON, DECODER.decode(Unpooled.wrappedBuffer(out.toByteArray()), "deflate"));
    }

    @Test
    void aZstdBombStopsAtTheLimit() {
        byte[] bomb = Zstd.compress(new byte[10 * 1024 * 1024]);
        assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> DECODER.decode(Unpooled.wrappedBuffer(bomb), "zstd")).code());
    }

    @Test
    void aPlainBodyOverTheLimitIsRefused() {
        assertEquals(413, assertThrows(Rejection.class,
                () -> DECODER.decode(Unpooled.wrappedBuffer(new byte[1025]), null)).status());
    }

    @Test
    void encodingNamesAreCaseInsensitive() throws Exception {
        assertArrayEquals(JSON, DECODER.decode(Unpooled.wrappedBuffer(Zstd.compress(JSON)), " ZSTD "));
    }

    @Test
    void corruptBrotliIsRefusedAs400() {
        assertEquals("corrupt_body", assertThrows(Rejection.class,
                () -> DECODER.decode(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5}), "br")).code());
    }
}
