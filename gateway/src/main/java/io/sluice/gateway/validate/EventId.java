package io.sluice.gateway.validate;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An event's id as Sluice stores and answers it: 32 lower-case hex digits. Clients may send it as
 * 32 hex digits or as a UUID (with dashes), in any case; every door reads it here.
 */
public record EventId(String hex) {
    /** Where a UUID's dashes are. */
    private static final int[] DASHES = {8, 13, 18, 23};

    public EventId {
        if (hex == null || hex.length() != 32 || !isHex(hex, 0, 32, false)) {
            throw new IllegalArgumentException("an event id is 32 lower-case hex digits, got " + hex);
        }
    }

    /** The id a client sent (32 hex digits or a UUID, spaces around it ignored), or null when it is not one. */
    public static EventId parse(String text) {
        if (text == null) {
            return null;
        }
        // Read by hand, not by regular expression: every event's id is read on an event loop.
        String stripped = text.strip();
        if (stripped.length() == 32 && isHex(stripped, 0, 32, true)) {
            return new EventId(stripped.toLowerCase(Locale.ROOT));
        }
        if (stripped.length() != 36) {
            return null;
        }
        int from = 0;
        for (int dash : DASHES) {
            if (stripped.charAt(dash) != '-' || !isHex(stripped, from, dash, true)) {
                return null;
            }
            from = dash + 1;
        }
        return isHex(stripped, from, 36, true) ? new EventId(stripped.replace("-", "").toLowerCase(Locale.ROOT)) : null;
    }

    /** Whether the characters from {@code from} to {@code to} are ASCII hex digits (upper case too when {@code upperCase}). */
    private static boolean isHex(String text, int from, int to, boolean upperCase) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || upperCase && c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }

    /**
     * The id of something sent without one, derived from what was sent: 128 bits of SHA-256 over
     * {@code kind} (what it is, so two kinds of thing never share an id) and its bytes. A client
     * that sends the same again (a retry) sends the same id, which the processor counts once.
     */
    public static EventId derived(byte kind, byte[] bytes) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException everyJavaHasIt) {
            throw new IllegalStateException(everyJavaHasIt);
        }
        sha256.update(kind);
        sha256.update(bytes);
        return new EventId(HexFormat.of().formatHex(sha256.digest(), 0, 16));
    }

    /**
     * A random (version 4) UUID as 32 hex digits. From ThreadLocalRandom, not UUID.randomUUID():
     * an event id needs to be unique, not unguessable, and SecureRandom is shared by all event
     * loops behind one lock.
     */
    public static EventId random() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48);
        char[] hex = new char[32];
        for (int i = 0; i < 16; i++) {
            hex[15 - i] = Character.forDigit((int) (high >>> (4 * i)) & 0xF, 16);
            hex[31 - i] = Character.forDigit((int) (low >>> (4 * i)) & 0xF, 16);
        }
        return new EventId(new String(hex));
    }

    @Override
    public String toString() {
        return hex;
    }
}
