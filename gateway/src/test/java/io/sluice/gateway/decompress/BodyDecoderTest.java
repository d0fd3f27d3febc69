package io.sluice.gateway.decompress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;

import com.github.luben.zstd.Zstd;

import io.netty.buffer.Unpooled;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.validate.FarMatchEvent;

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

    /** It was named so but checked only the refusal: now what was produced before it is measured too, as below. */
    @Test
    void aZstdBombStopsAtTheLimit() {
        byte[] bomb = Zstd.compress(new byte[10 * 1024 * 1024]);
        assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> DECODER.decode(Unpooled.wrappedBuffer(bomb), "zstd")).code()); // warm up: classes, JIT
        long allocated = allocatedWhile(() -> assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> DECODER.decode(Unpooled.wrappedBuffer(bomb), "zstd")).code()));
        // The limit is 1 KiB: a 16 KiB read chunk and the decoder's own buffers, nowhere near the 10 MiB.
        assertTrue(allocated < 1024 * 1024, "allocated " + allocated + " bytes");
    }

    /**
     * A 100 MiB gzip bomb against the production limit of 1 MiB: what the decoder produced is
     * measured, not timed. Every byte it produces it keeps (it must return them), so the bytes this
     * thread allocated while decoding bound what it produced: about twice the limit (the output
     * buffer doubles up to it) and its 16 KiB chunks, far from the 100 MiB inflating it all costs.
     */
    @Test
    void aGzipBombProducesAtMostAboutTheLimitBeforeItIsRefused() throws Exception {
        int limit = 1024 * 1024;
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 100; i++) {
                gzip.write(zeros);
            }
        }
        BodyDecoder decoder = new BodyDecoder(limit);
        byte[] bomb = compressed.toByteArray();
        assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> decoder.decode(Unpooled.wrappedBuffer(bomb), "gzip")).code()); // warm up: classes, JIT
        long allocated = allocatedWhile(() -> assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> decoder.decode(Unpooled.wrappedBuffer(bomb), "gzip")).code()));
        System.out.println("gzip bomb of " + bomb.length + " bytes (100 MiB inflated), limit " + limit + ": "
                + allocated + " bytes allocated while refusing it");
        assertTrue(allocated < 3L * limit, "allocated " + allocated + " bytes");
        // The same measure sees it when a body is inflated whole: it is not blind.
        byte[] justFits = new byte[limit];
        ByteArrayOutputStream fits = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(fits)) {
            gzip.write(justFits);
        }
        long allocatedForOneMebibyte = allocatedWhile(() -> assertEquals(limit,
                decoder.decode(Unpooled.wrappedBuffer(fits.toByteArray()), "gzip").length));
        assertTrue(allocatedForOneMebibyte >= limit, "allocated " + allocatedForOneMebibyte + " bytes for 1 MiB of output");
    }

    /**
     * The brotli bomb: 93 bytes that inflate to 100 MiB of zeros (made with libbrotlienc 1.0.9,
     * quality 11, the largest standard window, 2^24 bytes), its first meta-block declaring 16 MiB.
     * Measured as the gzip bomb above, in bytes, not seconds. Brotli's decoder keeps a ring buffer
     * as large as the window the stream declares, whatever the output; decoded with the window the
     * limit needs (2 MiB for 1 MiB), not the 16 MiB it declares: neither that nor the 100 MiB of
     * output may appear, only the limit's window and about the limit.
     */
    @Test
    void aBrotliBombDeclaringTheLargestWindowAllocatesTheLimitsWindowNotItsOwn() throws Exception {
        int limit = 1024 * 1024;
        byte[] bomb = BodyDecoderTest.class.getResourceAsStream("/zeros-100MiB.br").readAllBytes();
        assertEquals(93, bomb.length);
        assertEquals(100L << 20, inflatedSize(bomb), "the resource is the bomb it claims to be");
        BodyDecoder decoder = new BodyDecoder(limit);
        assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> decoder.decode(Unpooled.wrappedBuffer(bomb), "br")).code()); // warm up: classes, JIT
        long allocated = allocatedWhile(() -> assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> decoder.decode(Unpooled.wrappedBuffer(bomb), "br")).code()));
        System.out.println("brotli bomb of " + bomb.length + " bytes (100 MiB inflated), limit " + limit + ": "
                + allocated + " bytes allocated while refusing it");
        long limitsWindow = 2L * limit;
        assertTrue(allocated < limitsWindow + 3L * limit, "allocated " + allocated + " bytes");
    }

    /**
     * A stream that declares 2^24 and refers 616 KiB back (an 8 KiB text, 600 KiB of padding, the
     * text again: made with libbrotlienc 1.0.9, quality 11, window 24, in one meta-block) decodes
     * alike in the window of a 700 KiB limit (2^20): every backward distance is within the output.
     */
    @Test
    void aStreamDeclaringTheLargestWindowDecodesAlikeInTheWindowItsLimitNeeds() throws Exception {
        byte[] stream = BodyDecoderTest.class.getResourceAsStream("/far-match.json.br").readAllBytes();
        assertEquals(0xcf & 0x0f, stream[0] & 0x0f, "the stream declares a window of 2^24");
        byte[] decoded = new BodyDecoder(700 * 1024).decode(Unpooled.wrappedBuffer(stream), "br");
        assertArrayEquals(FarMatchEvent.json(), decoded);
    }

    @Test
    void aBrotliDecodersRingIsTakenFromTheReservationWhileItDecodes() throws Exception {
        // transaction.json.br: the brotli tool's, window 2^22, a 61-byte meta-block and an empty last one.
        byte[] body = BodyDecoderTest.class.getResourceAsStream("/transaction.json.br").readAllBytes();
        InFlightBudget budget = new InFlightBudget(8L << 20, 8L << 20, new AtomicLong());
        InFlightBudget.Reservation other = holding(budget, InetAddress.getByName("192.0.2.2"), 6L << 20);
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("192.0.2.1"), body.length);
        BodyDecoder decoder = new BodyDecoder(1 << 20);
        // More meta-blocks may follow, each declaring up to 16 MiB: the ring may grow to the window of
        // the 1 MiB limit (2 MiB), copied once as it grows; 2 MiB is all that is left.
        assertEquals("overloaded", assertThrows(Rejection.class,
                () -> decoder.decode(Unpooled.wrappedBuffer(body), "br", reservation)).code());
        assertEquals(body.length, reservation.bytes(), "a refusal takes nothing");

        other.release();
        assertEquals(61, decoder.decode(Unpooled.wrappedBuffer(body), "br", reservation).length);
        assertEquals(body.length + 61, reservation.bytes(), "the ring is given back once decoded, the output stays");
    }

    @Test
    void aStreamOfOneMetaBlockTakesAboutTwiceItsOutputForItsRing() throws Exception {
        byte[] stream = BodyDecoderTest.class.getResourceAsStream("/far-match.json.br").readAllBytes();
        int output = FarMatchEvent.json().length;
        InFlightBudget budget = new InFlightBudget(4L << 20, 4L << 20, new AtomicLong());
        // Room for the output and a ring of 1 MiB (2 x 2^19, the power of two below 616 KiB): not for the declared 16 MiB.
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("192.0.2.1"), stream.length);
        holding(budget, InetAddress.getByName("192.0.2.2"), (4L << 20) - stream.length - output - (1L << 20) - 37);
        assertEquals(output, new BodyDecoder(1 << 20).decode(Unpooled.wrappedBuffer(stream), "br", reservation).length);
    }

    @Test
    void aStreamWhoseOnlyMetaBlockDeclaresMoreThanTheLimitIsRefusedUndecoded() throws Exception {
        byte[] stream = BodyDecoderTest.class.getResourceAsStream("/far-match.json.br").readAllBytes();
        long allocated = allocatedWhile(() -> assertEquals("body_too_large", assertThrows(Rejection.class,
                () -> new BodyDecoder(600 * 1024).decode(Unpooled.wrappedBuffer(stream), "br")).code()));
        assertTrue(allocated < 64 * 1024, "allocated " + allocated + " bytes");
    }

    /** How many bytes a brotli stream inflates to, counted in a reused buffer (nothing kept). */
    private static long inflatedSize(byte[] brotli) throws Exception {
        long total = 0;
        byte[] buffer = new byte[1 << 16];
        try (java.io.InputStream in = new org.brotli.dec.BrotliInputStream(new java.io.ByteArrayInputStream(brotli))) {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                total += read;
            }
        }
        return total;
    }

    private static long allocatedWhile(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
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
        Rejection refused = assertThrows(Rejection.class,
                () -> DECODER.decode(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5}), "br"));
        assertEquals("corrupt_body", refused.code());
        assertEquals(400, refused.status());
    }

    private static byte[] gzip(byte[] plain) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(plain);
        }
        return out.toByteArray();
    }

    @Test
    void aBodyThatCouldNeverFitItsShareDecompressedIs413NotOverloaded() throws Exception {
        InFlightBudget budget = new InFlightBudget(1_000_000, 100_000, new AtomicLong());
        byte[] body = gzip(new byte[200_000]);
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("192.0.2.1"), body.length);
        Rejection refused = assertThrows(Rejection.class,
                () -> new BodyDecoder(1_000_000).decode(Unpooled.wrappedBuffer(body), "gzip", reservation));
        assertEquals("body_too_large", refused.code());
    }

    @Test
    void aBodyThatCouldFitOnceOthersAreDoneIs503() throws Exception {
        InFlightBudget budget = new InFlightBudget(1_000_000, 500_000, new AtomicLong());
        holding(budget, InetAddress.getByName("192.0.2.2"), 500_000);
        holding(budget, InetAddress.getByName("192.0.2.3"), 400_000);
        byte[] body = gzip(new byte[200_000]);
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("192.0.2.1"), body.length);
        Rejection refused = assertThrows(Rejection.class,
                () -> new BodyDecoder(1_000_000).decode(Unpooled.wrappedBuffer(body), "gzip", reservation));
        assertEquals("overloaded", refused.code());
    }

    @Test
    void aDoublingStepThatDoesNotFitFallsBackToWhatIsNeeded() throws Exception {
        InFlightBudget budget = new InFlightBudget(1_000_000, 100_000, new AtomicLong());
        byte[] body = gzip(new byte[90_000]);
        InFlightBudget.Reservation reservation = holding(budget, InetAddress.getByName("192.0.2.1"), body.length);
        assertEquals(90_000, new BodyDecoder(1_000_000).decode(Unpooled.wrappedBuffer(body), "gzip", reservation).length);
        assertTrue(reservation.bytes() <= 100_000, Long.toString(reservation.bytes()));
    }

    /** A request holding {@code bytes} of body, as the gateway makes one: from its head announcing them, then as they arrive. */
    private static InFlightBudget.Reservation holding(InFlightBudget budget, InetAddress client, long bytes) {
        InFlightBudget.Reservation reservation = budget.expect(client, null, bytes);
        reservation.extend(bytes);
        return reservation;
    }
}
