package io.sluice.gateway.validate;

import java.nio.charset.StandardCharsets;

/**
 * What {@code far-match.json.br} holds: {@code {"transaction":"GET /far","extra":{"a":"<8 KiB of
 * letters>","pad":"<600 KiB of x>","b":"<the same letters>"}}}, 630,843 bytes, compressed by
 * libbrotlienc 1.0.9 ({@code BrotliEncoderCompress}, quality 11, window 24: one meta-block of 4,969
 * bytes whose second text is a reference 616 KiB back). The letters come from xorshift32 seeded
 * with 1, as its generator made them, so the event is built here rather than stored.
 */
public final class FarMatchEvent {
    private FarMatchEvent() {
    }

    public static byte[] json() {
        byte[] letters = new byte[8192];
        int x = 1;
        for (int i = 0; i < letters.length; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            letters[i] = (byte) ('a' + Integer.remainderUnsigned(x, 26));
        }
        String text = new String(letters, StandardCharsets.US_ASCII);
        return ("{\"transaction\":\"GET /far\",\"extra\":{\"a\":\"" + text + "\",\"pad\":\"" + "x".repeat(600 * 1024)
                + "\",\"b\":\"" + text + "\"}}").getBytes(StandardCharsets.US_ASCII);
    }
}
