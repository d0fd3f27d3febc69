package io.sluice.gateway.scrub;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Percent-decoding of parameter names, leniently: an escape that is not {@code %} and two hex
 * digits stays as written, and bytes that are not UTF-8 become U+FFFD. Hand-written because
 * {@link java.net.URLDecoder} throws on a malformed escape (a hostile name must not stop the
 * scrubber) and turns {@code +} into a space, which no sensitive name holds.
 */
final class PercentEncoding {
    /** A name encoded more than this many times is judged as it reads then. */
    static final int MAX_ROUNDS = 4;

    private PercentEncoding() {
    }

    /**
     * The name decoded as often as it still holds an escape (at most {@link #MAX_ROUNDS} times):
     * once is what a server reads, again catches {@code pass%2577ord} for a server that decodes twice.
     */
    static String decoded(String name) {
        String decoded = name;
        for (int round = 0; round < MAX_ROUNDS && decoded.indexOf('%') >= 0; round++) {
            String next = once(decoded);
            if (next.equals(decoded)) {
                break;
            }
            decoded = next;
        }
        return decoded;
    }

    private static String once(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int high = c == '%' && i + 2 < text.length() ? hex(text.charAt(i + 1)) : -1;
            int low = high >= 0 ? hex(text.charAt(i + 2)) : -1;
            if (low >= 0) {
                bytes.write(high << 4 | low);
                i += 2;
                continue;
            }
            flush(bytes, out);
            out.append(c);
        }
        flush(bytes, out);
        return out.toString();
    }

    /** The value of an ASCII hex digit, else -1 (not {@link Character#digit}: it takes other scripts' digits too). */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder out) {
        if (bytes.size() > 0) {
            out.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
            bytes.reset();
        }
    }
}
