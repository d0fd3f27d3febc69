package io.sluice.cli.deadletters;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Text from a dead letter made safe for a terminal: whatever a stranger sent can be in it, so
 * control characters (escape sequences that move the cursor, retitle the window, clear the screen),
 * bidirectional overrides and invalid UTF-8 are shown as {@code \\uXXXX} escapes, and long text is cut.
 */
final class SafeText {
    private SafeText() {
    }

    /** The bytes as UTF-8 (invalid sequences as U+FFFD), made safe, at most {@code maxChars} of them. */
    static String of(byte[] bytes, int maxChars) {
        if (bytes == null) {
            return "(none)";
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            text = new String(bytes, StandardCharsets.UTF_8) + " (not valid UTF-8: shown with U+FFFD)";
        }
        return of(text, maxChars);
    }

    /** The text made safe, at most {@code maxChars} characters of it, then how many were left out. */
    static String of(String text, int maxChars) {
        if (text == null) {
            return "(none)";
        }
        StringBuilder safe = new StringBuilder(Math.min(text.length(), maxChars) + 16);
        int shown = 0;
        int i = 0;
        while (i < text.length() && shown < maxChars) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                safe.append(c).append(text.charAt(i + 1));
                i += 2;
            } else {
                if (unsafe(c)) {
                    safe.append(String.format("\\u%04x", (int) c));
                } else {
                    safe.append(c);
                }
                i++;
            }
            shown++;
        }
        if (i < text.length()) {
            safe.append("… (").append(text.length() - i).append(" more characters)");
        }
        return safe.toString();
    }

    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) // C0 (ESC, BEL, CR, newline…), DEL, C1 (CSI)
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f // bidi
                || Character.isSurrogate(c); // a lone half of a pair
    }
}
