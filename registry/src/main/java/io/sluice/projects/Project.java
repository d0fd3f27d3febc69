package io.sluice.projects;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A project as the registry topic holds it. No secret in here: private keys are hashes, DSN keys
 * are public.
 *
 * @param quota          limit on all its events, or null for none
 * @param endpointQuotas limits per endpoint ({@code transaction}, {@code project}), on top of {@code quota}
 * @param dsnKeys        public keys for Sentry SDKs (never valid as Bearer keys); records written
 *                       before DSN keys existed read as none
 */
public record Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                      Quota quota, Map<String, Quota> endpointQuotas, List<DsnKey> dsnKeys) {
    public Project {
        keys = List.copyOf(keys);
        endpointQuotas = endpointQuotas == null ? Map.of() : Map.copyOf(endpointQuotas);
        dsnKeys = dsnKeys == null ? List.of() : List.copyOf(dsnKeys);
    }

    public Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                   Quota quota, Map<String, Quota> endpointQuotas) {
        this(token, name, disabled, keys, createdAt, quota, endpointQuotas, List.of());
    }

    public Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt) {
        this(token, name, disabled, keys, createdAt, null, Map.of(), List.of());
    }

    /**
     * A project's stable numeric id (the last part of a DSN), derived from its token so every
     * project has one without storing it: the first 6 bytes of SHA-256(token), a positive number
     * of at most 48 bits (15 digits, exact as a JavaScript number).
     */
    public static long numericIdOf(String token) {
        byte[] hash = Secrets.sha256(token);
        byte[] eight = new byte[8];
        System.arraycopy(hash, 0, eight, 2, 6);
        return ByteBuffer.wrap(eight).getLong();
    }

    /** {@link #numericIdOf(String)} of this project's token. */
    public long numericId() {
        return numericIdOf(token);
    }

    public Project withKeys(List<ProjectKey> newKeys) {
        return new Project(token, name, disabled, newKeys, createdAt, quota, endpointQuotas, dsnKeys);
    }

    public Project withDsnKeys(List<DsnKey> newDsnKeys) {
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, newDsnKeys);
    }

    public Project withDisabled(boolean newDisabled) {
        return new Project(token, name, newDisabled, keys, createdAt, quota, endpointQuotas, dsnKeys);
    }

    /** The quota for all events ({@code endpoint} null) or for one endpoint. */
    public Project withQuota(String endpoint, Quota newQuota) {
        if (endpoint == null) {
            return new Project(token, name, disabled, keys, createdAt, newQuota, endpointQuotas, dsnKeys);
        }
        Map<String, Quota> quotas = new java.util.HashMap<>(endpointQuotas);
        quotas.put(endpoint, newQuota);
        return new Project(token, name, disabled, keys, createdAt, quota, quotas, dsnKeys);
    }

    /** Whether the presented key (as its SHA-256) is an active key of this project. */
    public boolean hasActiveKey(byte[] presentedHash, Instant now) {
        boolean found = false;
        for (ProjectKey key : keys) {
            // No early exit: every key is compared, so timing does not depend on which one matched.
            found |= key.matches(presentedHash) && key.activeAt(now);
        }
        return found;
    }

    /** The active DSN key with this public key, or null. Private keys ({@link #keys()}) never match here. */
    public DsnKey activeDsnKey(String publicKey, Instant now) {
        DsnKey found = null;
        for (DsnKey key : dsnKeys) {
            // No early exit, as for private keys: every key is compared.
            if (key.matches(publicKey) & key.activeAt(now)) {
                found = key;
            }
        }
        return found;
    }
}
