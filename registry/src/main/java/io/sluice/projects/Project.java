package io.sluice.projects;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A project as the registry topic holds it. No secret in here: keys are hashes.
 *
 * @param quota          limit on all its events, or null for none
 * @param endpointQuotas limits per endpoint ({@code transaction}, {@code project}), on top of {@code quota}
 */
public record Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt,
                      Quota quota, Map<String, Quota> endpointQuotas) {
    public Project {
        keys = List.copyOf(keys);
        endpointQuotas = endpointQuotas == null ? Map.of() : Map.copyOf(endpointQuotas);
    }

    public Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt) {
        this(token, name, disabled, keys, createdAt, null, Map.of());
    }

    public Project withKeys(List<ProjectKey> newKeys) {
        return new Project(token, name, disabled, newKeys, createdAt, quota, endpointQuotas);
    }

    public Project withDisabled(boolean newDisabled) {
        return new Project(token, name, newDisabled, keys, createdAt, quota, endpointQuotas);
    }

    /** The quota for all events ({@code endpoint} null) or for one endpoint. */
    public Project withQuota(String endpoint, Quota newQuota) {
        if (endpoint == null) {
            return new Project(token, name, disabled, keys, createdAt, newQuota, endpointQuotas);
        }
        Map<String, Quota> quotas = new java.util.HashMap<>(endpointQuotas);
        quotas.put(endpoint, newQuota);
        return new Project(token, name, disabled, keys, createdAt, quota, quotas);
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
}
