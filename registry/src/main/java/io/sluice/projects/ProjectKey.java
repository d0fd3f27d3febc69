package io.sluice.projects;

import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;

/** One private key of a project, as stored: only its SHA-256, never the key itself. */
public record ProjectKey(String id, String sha256, Instant expiresAt) {
    public static ProjectKey of(String id, String key, Instant expiresAt) {
        return new ProjectKey(id, HexFormat.of().formatHex(Secrets.sha256(key)), expiresAt);
    }

    public boolean activeAt(Instant now) {
        return expiresAt == null || now.isBefore(expiresAt);
    }

    /** Constant-time comparison of hashes, so response timing says nothing about the key. */
    public boolean matches(byte[] presentedHash) {
        return MessageDigest.isEqual(HexFormat.of().parseHex(sha256), presentedHash);
    }
}
