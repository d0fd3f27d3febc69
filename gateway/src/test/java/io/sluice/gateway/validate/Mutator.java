package io.sluice.gateway.validate;

import java.util.Random;

/** Mutations of valid payloads that fuzz tests feed to the gateway: flips, truncation, nesting, odd values. */
public final class Mutator {
    private Mutator() {
    }

    public static byte[] mutate(byte[] original, Random random) {
        byte[] bytes = original.clone();
        switch (random.nextInt(6)) {
            case 0 -> { // flip a few bytes
                for (int i = 0; i < 1 + random.nextInt(8); i++) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            case 1 -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length)); // truncate
            case 2 -> { // random bytes only
                bytes = new byte[random.nextInt(512)];
                random.nextBytes(bytes);
            }
            case 3 -> { // deep nesting around the payload
                int depth = random.nextInt(2_000);
                bytes = ("[".repeat(depth) + new String(bytes, java.nio.charset.StandardCharsets.UTF_8) + "]".repeat(depth))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            case 4 -> { // swap in odd values for known fields
                String[] odd = {"null", "-1", "1e309", "\"\"", "[]", "{}", "\"\\ud800\"", "99999999999999999999", "true"};
                String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
                for (String field : new String[] {"\"timestamp\": ", "\"event_id\": ", "\"transaction\": ", "\"tags\": ", "\"exception\": "}) {
                    int at = text.indexOf(field);
                    if (at >= 0 && random.nextBoolean()) {
                        text = text.substring(0, at + field.length()) + odd[random.nextInt(odd.length)] + ", \"was\": "
                                + text.substring(at + field.length());
                    }
                }
                bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            default -> { // duplicate a slice
                int from = random.nextInt(bytes.length);
                int to = Math.min(bytes.length, from + random.nextInt(64));
                byte[] grown = new byte[bytes.length + (to - from)];
                System.arraycopy(bytes, 0, grown, 0, to);
                System.arraycopy(bytes, from, grown, to, bytes.length - from);
                bytes = grown;
            }
        }
        return bytes;
    }

}
