package io.sluice.projects;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Numeric id → token, for DSNs. Ids are 48 bits of a hash, so two tokens may (very rarely) share
 * one: then NEITHER is found by that id, since answering with either would be a guess at which
 * project a DSN means and could file one tenant's events under another. Both stay reachable by
 * token, and the collision is logged as an error. Lookups are lock-free map reads.
 */
final class NumericIdIndex {
    private static final Logger LOG = LoggerFactory.getLogger(NumericIdIndex.class);

    private final Map<Long, Set<String>> tokensById = new ConcurrentHashMap<>();

    void add(long id, String token) {
        Set<String> tokens = tokensById.merge(id, Set.of(token), (old, added) -> {
            Set<String> union = new HashSet<>(old);
            union.addAll(added);
            return Set.copyOf(union);
        });
        if (tokens.size() > 1) {
            LOG.error("projects {} share the numeric id {}: none of them is reachable by DSN until all but one "
                    + "are deleted (their tokens still work)", tokens, id);
        }
    }

    void remove(long id, String token) {
        tokensById.computeIfPresent(id, (key, old) -> {
            Set<String> rest = new HashSet<>(old);
            rest.remove(token);
            return rest.isEmpty() ? null : Set.copyOf(rest);
        });
    }

    /** The one token with this id, or null when none or several have it. */
    String token(long id) {
        Set<String> tokens = tokensById.get(id);
        return tokens == null || tokens.size() != 1 ? null : tokens.iterator().next();
    }
}
