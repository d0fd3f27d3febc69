package io.sluice.projects;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * One public key of a project, for Sentry SDKs: the {@code publicKey} in a DSN
 * ({@code https://<publicKey>@host/<numeric id>}). Public on purpose (it ships in browser code), so
 * it is stored as-is; it is never valid as a Bearer key, which lives in {@link Project#keys()}.
 *
 * @param publicKey      32 lower-case hex digits (128 random bits)
 * @param expiresAt      null: no expiry
 * @param allowedOrigins browser origins allowed to send with this key ({@code https://shop.example});
 *                       empty: any origin
 */
public record DsnKey(String id, String publicKey, Instant createdAt, Instant expiresAt, List<String> allowedOrigins) {
    public DsnKey {
        allowedOrigins = allowedOrigins == null ? List.of() : List.copyOf(allowedOrigins);
    }

    /** A new key with a fresh public key, no expiry, any origin. */
    public static DsnKey create(Instant now) {
        return new DsnKey(Secrets.newKeyId(), Secrets.newPublicKey(), now, null, List.of());
    }

    public boolean activeAt(Instant now) {
        return expiresAt == null || now.isBefore(expiresAt);
    }

    /**
     * Whether a request from this browser origin may use the key: always when no origin is listed;
     * otherwise the {@code Origin} must be one of them (case-insensitive, a trailing slash ignored).
     * A request without an origin (a server SDK) is refused only when origins are listed.
     */
    public boolean allowsOrigin(String origin) {
        if (allowedOrigins.isEmpty()) {
            return true;
        }
        if (origin == null) {
            return false;
        }
        String presented = normalized(origin);
        return allowedOrigins.stream().anyMatch(allowed -> normalized(allowed).equals(presented));
    }

    public DsnKey withExpiresAt(Instant newExpiresAt) {
        return new DsnKey(id, publicKey, createdAt, newExpiresAt, allowedOrigins);
    }

    public DsnKey withAllowedOrigins(List<String> origins) {
        return new DsnKey(id, publicKey, createdAt, expiresAt, origins);
    }

    /** Constant-time comparison, so response timing says nothing about which keys exist. */
    boolean matches(String presented) {
        return publicKey != null && presented != null && MessageDigest.isEqual(
                publicKey.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    private static String normalized(String origin) {
        String trimmed = origin.trim().toLowerCase(Locale.ROOT);
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
