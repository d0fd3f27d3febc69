package io.sluice.projects;

import java.time.Instant;

/**
 * A DSN key an operator revoked, as its project's record remembers it. Its public key may still be
 * in browsers' code for long, so a gateway must know it as revoked (a 401 that locks out no address),
 * not as a guess, even one that starts after compaction left only the latest record. Public, as
 * every DSN key is.
 */
public record RevokedDsnKey(String id, String publicKey, Instant revokedAt) {
}
