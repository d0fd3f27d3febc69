package io.sluice.projects;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Generates tokens and keys, and hashes keys. Keys are 256 random bits, so one SHA-256 is the
 * right hash: a slow password hash protects guessable secrets, and these are not guessable.
 */
public final class Secrets {
    /** Prefix that lets secret scanners recognize a leaked key. */
    public static final String KEY_PREFIX = "slk_";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();
    // A key is hashed on every request: looking the algorithm up among the providers each time cost
    // more than hashing (0.6–0.8 µs against 0.2). One digest per thread (the gateway's event loops, a fixed few).
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(Secrets::newSha256);

    private Secrets() {
    }

    /**
     * 128 random bits, URL-safe: the project token (identifies, not secret). Never with a leading
     * '-': on a command line such a token reads as an option (one token in 64 did).
     */
    public static String newToken() {
        String token;
        do {
            token = URL_SAFE.encodeToString(randomBytes(16));
        } while (token.startsWith("-"));
        return token;
    }

    /** 256 random bits: a private key (secret; shown once, stored only as its hash). */
    public static String newKey() {
        return KEY_PREFIX + URL_SAFE.encodeToString(randomBytes(32));
    }

    /** A short public id to name one key of a project (for rotation and revocation). */
    public static String newKeyId() {
        return HexFormat.of().formatHex(randomBytes(4));
    }

    /** 128 random bits as 32 lower-case hex digits: a DSN's public key (matches the SDKs' {@code \w+}). */
    public static String newPublicKey() {
        return HexFormat.of().formatHex(randomBytes(16));
    }

    public static byte[] sha256(String key) {
        return SHA_256.get().digest(key.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
