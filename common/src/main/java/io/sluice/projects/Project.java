package io.sluice.projects;

import java.time.Instant;
import java.util.List;

/** A project as the registry topic holds it. No secret in here: keys are hashes. */
public record Project(String token, String name, boolean disabled, List<ProjectKey> keys, Instant createdAt) {
    public Project {
        keys = List.copyOf(keys);
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
