package io.sluice.processor.rows;

import java.nio.charset.StandardCharsets;

/**
 * The longest string each column of the history rows holds, and the one function that makes a
 * string fit: valid Unicode (a lone surrogate, which UTF-8 cannot encode, becomes U+FFFD) and at
 * most that many characters (UTF-16 units, cut where no surrogate pair is split).
 *
 * <p>The limits keep every row well below the stream producer's 1 MiB request limit even when
 * JSON escaping multiplies a string's size (up to 6 bytes for a control character): an accepted
 * event can never make a row that Kafka refuses.
 */
public final class Columns {
    public static final int TRANSACTION = 8 * 1024;
    public static final int URL = 8 * 1024;
    public static final int PATH = 8 * 1024;
    public static final int METHOD = 64;
    public static final int ENVIRONMENT = 256;
    /** As Sentry bounds a release's name. */
    public static final int RELEASE = 200;
    public static final int LEVEL = 64;
    public static final int USER_ID = 1024;
    /** sdk, runtime and os names and versions. */
    public static final int NAME_OR_VERSION = 256;
    public static final int EXCEPTION_TYPE = 1024;
    public static final int EXCEPTION_VALUE = 32 * 1024;
    public static final int TOP_FRAME = 4 * 1024;
    /**
     * The raw JSON is kept as {@code payload} up to this many bytes. A cut JSON would be no JSON
     * at all, so a larger payload is replaced whole by {@link #omittedPayload}.
     */
    public static final int PAYLOAD_BYTES = 256 * 1024;
    /** Project and event id are checked by the gateway; they are only made valid here. */
    static final int UNLIMITED = Integer.MAX_VALUE;

    private static final char REPLACEMENT = '\uFFFD';

    private Columns() {
    }

    /** {@code value} as valid Unicode of at most {@code maxChars} UTF-16 units; the same instance when it already is. */
    public static String fit(String value, int maxChars) {
        if (value == null) {
            return null;
        }
        if (value.length() <= maxChars && !hasSurrogate(value)) {
            return value; // the usual case: no copy
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), maxChars));
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                if (out.length() + 2 > maxChars) {
                    break;
                }
                out.append(c).append(value.charAt(++i));
                continue;
            }
            if (out.length() + 1 > maxChars) {
                break;
            }
            out.append(Character.isSurrogate(c) ? REPLACEMENT : c);
        }
        return out.toString();
    }

    /** The raw JSON as the {@code payload} column: whole when it fits, else {@link #omittedPayload}. */
    public static String payload(byte[] json) {
        // Decoding replaces bytes that are not UTF-8; the gateway only accepts parsed JSON anyway.
        return json.length <= PAYLOAD_BYTES ? new String(json, StandardCharsets.UTF_8) : omittedPayload(json.length);
    }

    /** Valid JSON that says the payload was too large to keep, and how large it was. */
    public static String omittedPayload(int bytes) {
        return "{\"sluice_payload_omitted\":{\"bytes\":" + bytes + ",\"limit\":" + PAYLOAD_BYTES + "}}";
    }

    private static boolean hasSurrogate(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (Character.isSurrogate(value.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
