package io.sluice.projects;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.sluice.events.RouteRules;

/**
 * A project as the registry topic holds it. No secret in here: private keys are hashes, DSN keys
 * are public.
 *
 * @param quota          limit on all its events, or null for none
 * @param endpointQuotas limits per endpoint ({@code transaction}, {@code project}), on top of {@code quota}
 * @param dsnKeys        public keys for Sentry SDKs (never valid as Bearer keys); records written
 *                       before DSN keys existed read as none
 * @param revokedDsnKeys the last {@link #REVOKED_DSN_KEYS_KEPT} DSN keys revoked, oldest first; records
 *                       written before they were kept read as none
 * @param routeRules     the project's route patterns, tried before the built-in normalization (see
 *                       {@link RouteRules}); records written before they existed read as none
 * @param dataScrubbing  what the gateway scrubs from its events; records written before it existed
 *                       read as {@link DataScrubbing#DEFAULT}
 * @param inboundFilters which of its events the gateway filters before they take its quota; records
 *                       written before it existed read as {@link InboundFilters#DEFAULT}
 * @param lifecycle      whether it was deleted; records written before it existed
 *                       read as {@link Lifecycle#DEFAULT}
 */
public record Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                      Quota quota, Map<String, Quota> endpointQuotas, List<DsnKey> dsnKeys,
                      List<RevokedDsnKey> revokedDsnKeys, RouteRules routeRules,
                      DataScrubbing dataScrubbing, InboundFilters inboundFilters,
                      Lifecycle lifecycle) {
    /**
     * How many revoked DSN keys a project remembers. By count, not by age: a revoked DSN can live on
     * in cached bundles and unupdated apps for years, and it is the count that bounds the record
     * (about 100 bytes a key, every gateway reads every record at start).
     */
    public static final int REVOKED_DSN_KEYS_KEPT = 100;

    public Project {
        keys = List.copyOf(keys);
        endpointQuotas = endpointQuotas == null ? Map.of() : Map.copyOf(endpointQuotas);
        dsnKeys = dsnKeys == null ? List.of() : List.copyOf(dsnKeys);
        revokedDsnKeys = revokedDsnKeys == null ? List.of() : List.copyOf(revokedDsnKeys);
        routeRules = routeRules == null ? RouteRules.NONE : routeRules;
        dataScrubbing = dataScrubbing == null ? DataScrubbing.DEFAULT : dataScrubbing;
        inboundFilters = inboundFilters == null ? InboundFilters.DEFAULT : inboundFilters;
        lifecycle = lifecycle == null ? Lifecycle.DEFAULT : lifecycle;
    }

    public Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                   Quota quota, Map<String, Quota> endpointQuotas, List<DsnKey> dsnKeys, List<RevokedDsnKey> revokedDsnKeys,
                   RouteRules routeRules, DataScrubbing dataScrubbing) {
        this(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing,
                InboundFilters.DEFAULT, Lifecycle.DEFAULT);
    }

    public Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                   Quota quota, Map<String, Quota> endpointQuotas, List<DsnKey> dsnKeys, List<RevokedDsnKey> revokedDsnKeys) {
        this(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, RouteRules.NONE, DataScrubbing.DEFAULT);
    }

    public Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                   Quota quota, Map<String, Quota> endpointQuotas, List<DsnKey> dsnKeys) {
        this(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, List.of());
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
        return new Project(token, name, disabled, newKeys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing, inboundFilters, lifecycle);
    }

    public Project withDsnKeys(List<DsnKey> newDsnKeys) {
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, newDsnKeys, revokedDsnKeys, routeRules, dataScrubbing, inboundFilters, lifecycle);
    }

    /**
     * Without the DSN key of this id, which it remembers among its {@link #revokedDsnKeys()} (the
     * oldest beyond {@link #REVOKED_DSN_KEYS_KEPT} forgotten); unchanged when it has no such key.
     */
    public Project withDsnKeyRevoked(String keyId, Instant now) {
        List<DsnKey> kept = dsnKeys.stream().filter(key -> !key.id().equals(keyId)).toList();
        if (kept.size() == dsnKeys.size()) {
            return this;
        }
        List<RevokedDsnKey> revoked = new java.util.ArrayList<>(revokedDsnKeys);
        dsnKeys.stream().filter(key -> key.id().equals(keyId))
                .forEach(key -> revoked.add(new RevokedDsnKey(key.id(), key.publicKey(), now)));
        List<RevokedDsnKey> newest = revoked.subList(Math.max(0, revoked.size() - REVOKED_DSN_KEYS_KEPT), revoked.size());
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, kept, newest, routeRules, dataScrubbing, inboundFilters, lifecycle);
    }

    public Project withDisabled(boolean newDisabled) {
        return new Project(token, name, newDisabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing, inboundFilters, lifecycle);
    }

    public Project withDataScrubbing(DataScrubbing newDataScrubbing) {
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, newDataScrubbing, inboundFilters, lifecycle);
    }

    public Project withInboundFilters(InboundFilters newInboundFilters) {
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing,
                newInboundFilters, lifecycle);
    }

    public Project withLifecycle(Lifecycle newLifecycle) {
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing,
                inboundFilters, newLifecycle);
    }

    public Project withRouteRules(RouteRules newRules) {
        return new Project(token, name, disabled, keys, createdAt, quota, endpointQuotas, dsnKeys, revokedDsnKeys, newRules, dataScrubbing, inboundFilters, lifecycle);
    }

    /** The quota for all events ({@code endpoint} null) or for one endpoint. */
    public Project withQuota(String endpoint, Quota newQuota) {
        if (endpoint == null) {
            return new Project(token, name, disabled, keys, createdAt, newQuota, endpointQuotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing, inboundFilters, lifecycle);
        }
        Map<String, Quota> quotas = new java.util.HashMap<>(endpointQuotas);
        quotas.put(endpoint, newQuota);
        return new Project(token, name, disabled, keys, createdAt, quota, quotas, dsnKeys, revokedDsnKeys, routeRules, dataScrubbing, inboundFilters, lifecycle);
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
