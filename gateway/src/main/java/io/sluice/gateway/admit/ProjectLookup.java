package io.sluice.gateway.admit;

import io.sluice.projects.Project;
import io.sluice.projects.ProjectRegistry;

/** What the {@link Authenticator} looks up: the project registry, or a table of a test's own. */
public interface ProjectLookup {
    /** The project with this token, or null. */
    Project find(String token);

    /** The token of the project that owns a private key with this SHA-256, or null. */
    String tokenOwningKey(byte[] keyHash);

    /** The project with this numeric id (the last part of a DSN), or null. */
    Project byNumericId(long id);

    /** The token of the project with a DSN key (active or expired) of this public key, or null. */
    String tokenOwningDsnKey(String publicKey);

    /** Whether this public key is, or was until it was removed, a DSN key of some project. */
    boolean isOrWasDsnKey(String publicKey);

    /** Whether the project with this token is withdrawn because its latest registry record cannot be read. */
    boolean isUnreadable(String token);

    /** The token of the project with this numeric id when its latest registry record cannot be read, else null. */
    String unreadableTokenOf(long id);

    /** Whether the project's latest registry record cannot be read and no earlier one was read: its keys are unknown. */
    boolean isUnreadableWithUnknownKeys(String token);

    static ProjectLookup of(ProjectRegistry registry) {
        return new ProjectLookup() {
            @Override
            public Project find(String token) {
                return registry.find(token);
            }

            @Override
            public boolean isUnreadable(String token) {
                return registry.isUnreadable(token);
            }

            @Override
            public String unreadableTokenOf(long id) {
                return registry.unreadableTokenOf(id);
            }

            @Override
            public boolean isUnreadableWithUnknownKeys(String token) {
                return registry.isUnreadableWithUnknownKeys(token);
            }

            @Override
            public String tokenOwningKey(byte[] keyHash) {
                return registry.tokenOwningKey(keyHash);
            }

            @Override
            public Project byNumericId(long id) {
                return registry.byNumericId(id);
            }

            @Override
            public String tokenOwningDsnKey(String publicKey) {
                return registry.tokenOwningDsnKey(publicKey);
            }

            @Override
            public boolean isOrWasDsnKey(String publicKey) {
                return registry.isOrWasDsnKey(publicKey);
            }
        };
    }
}
