package io.sluice.gateway.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.netty.buffer.Unpooled;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.decompress.BodyDecoder;

/**
 * Random and mutated bodies through the decoder and the validator: every input is either
 * accepted or refused with a {@link Rejection}, never another exception, and quickly. Seeded, so a
 * failure names the input that caused it; bounded in count and time for CI.
 */
class DecodeAndValidateFuzzTest {
    private static final long SEED = 20261122L;
    private static final int ROUNDS = 30_000;

    /** The production limit (SLUICE_GATEWAY_MAX_DECOMPRESSED_BYTES), as the README claims. */
    private final BodyDecoder decoder = new BodyDecoder(1024 * 1024);
    private final EventValidator validator = new EventValidator(Duration.ofHours(24));

    /** Every one of the 30,000 inputs runs: the bound is the test's timeout, not a cut-off that skips inputs. */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyInputIsAcceptedOrRefusedWithARejection() throws Exception {
        List<byte[]> corpus = new ArrayList<>();
        try (var files = Files.list(Path.of("src/test/resources/sdk-payloads"))) {
            for (Path file : files.sorted().toList()) {
                corpus.add(Files.readAllBytes(file));
            }
        }
        Random random = new Random(SEED);
        long start = System.nanoTime();
        int rounds = 0;
        for (; rounds < ROUNDS; rounds++) {
            byte[] input = Mutator.mutate(corpus.get(random.nextInt(corpus.size())), random);
            String encoding = random.nextInt(4) == 0 ? "gzip" : null;
            byte[] body = encoding == null ? input : gzip(input);
            if (random.nextInt(10) == 0) {
                body = Mutator.mutate(body, random); // corrupt the compressed stream too
            }
            Endpoint endpoint = random.nextBoolean() ? Endpoint.TRANSACTION : Endpoint.ERROR_REPORT;
            try {
                byte[] json = decoder.decode(Unpooled.wrappedBuffer(body), encoding);
                validator.validate(endpoint, json, System.currentTimeMillis());
            } catch (Rejection expected) {
                assertTrue(expected.status() >= 400 && expected.status() < 500, expected.getMessage());
            } catch (RuntimeException | StackOverflowError e) {
                fail("round " + rounds + " (seed " + SEED + "): " + e + " for input "
                        + new String(input, java.nio.charset.StandardCharsets.UTF_8), e);
            }
        }
        assertEquals(ROUNDS, rounds);
        System.out.println("fuzz: " + rounds + " inputs (seed " + SEED + ", decompressed limit 1 MiB) in "
                + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
    }

    private static byte[] gzip(byte[] bytes) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        }
        return out.toByteArray();
    }
}
