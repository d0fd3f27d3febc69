package io.sluice.gateway.admit;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.DsnKey;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.ProjectRegistry;
import io.sluice.projects.Secrets;
import io.sluice.gateway.ingest.Rejection;

/**
 * Checks {@code Authorization: Bearer <private key>} against the project named in the path.
 * A missing or malformed header, an unknown key and an unknown token all get the same 401, so
 * the answer tells nobody which tokens exist. A valid key of another project, or the right key
 * of a disabled project, gets 403. The key itself is hashed at once and never kept or logged.
 *
 * <p>An unknown token or numeric id costs the same work as a known one with a wrong key: the key
 * is compared with {@link #STAND_IN}'s, a project of one private and one DSN key (as most
 * projects have), and the owner of the key is looked up all the same, so the time of a refusal
 * does not tell whether the token exists.
 */
public final class Authenticator {
    private static final String BEARER = "Bearer ";
    private static final int MAX_KEY_LENGTH = 256;
    /** Compared with in place of a project that does not exist; its keys are random, nobody holds them. */
    static final Project STAND_IN = new Project(Secrets.newToken(), "stand-in", false,
            List.of(ProjectKey.of(Secrets.newKeyId(), Secrets.newKey(), null)), Instant.EPOCH, null, null,
            List.of(DsnKey.create(Instant.EPOCH)));

    private final ProjectLookup registry;
    private final Clock clock;

    public Authenticator(ProjectRegistry registry, Clock clock) {
        this(ProjectLookup.of(registry), clock);
    }

    public Authenticator(ProjectLookup registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    /** The authenticated project, or a 401/403 {@link Rejection}. */
    public Project authenticate(String token, String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || authorization.length() > BEARER.length() + MAX_KEY_LENGTH) {
            throw unauthorized();
        }
        String key = authorization.substring(BEARER.length()).strip();
        if (key.isEmpty()) {
            throw unauthorized();
        }
        byte[] keyHash = Secrets.sha256(key);
        Project project = registry.find(token);
        boolean active = (project == null ? STAND_IN : project).hasActiveKey(keyHash, clock.instant());
        if (project != null && active) {
            return enabled(project);
        }
        // Both for an unknown token too: the same work.
        String owner = registry.tokenOwningKey(keyHash);
        if (project == null && token.equals(owner)) {
            // Its record was applied between the two lookups: judge the key by the project it names.
            Project arrived = registry.find(token);
            if (arrived != null && arrived.hasActiveKey(keyHash, clock.instant())) {
                return enabled(arrived);
            }
        }
        boolean unavailable = registry.isUnreadable(token)
                && (token.equals(owner) || registry.isUnreadableWithUnknownKeys(token));
        if (project == null) {
            if (unavailable) {
                throw projectUnavailable();
            }
            throw unauthorized();
        }
        if (owner != null && !owner.equals(token)) {
            throw new Rejection(Outcome.KEY_OF_ANOTHER_PROJECT,
                    "this key belongs to another project than the token in the path");
        }
        throw unauthorized();
    }

    /** A project and the DSN key that a Sentry SDK authenticated with. */
    public record DsnAuthenticated(Project project, DsnKey key) {
    }

    /**
     * Checks a DSN's public key against the project with this numeric id. An unknown project and
     * a key that is not an active DSN key of it (a private key never is) get the same 401; the
     * right key of a disabled project 403.
     */
    public DsnAuthenticated authenticateDsn(long projectId, String publicKey) {
        Project project = registry.byNumericId(projectId);
        DsnKey key = (project == null ? STAND_IN : project).activeDsnKey(publicKey, clock.instant());
        if (project == null || key == null) {
            String ownerToken = registry.tokenOwningDsnKey(publicKey);
            String unreadable = registry.unreadableTokenOf(projectId); // for a known id too: the same work
            if (project == null && unreadable != null
                    && (unreadable.equals(ownerToken) || registry.isUnreadableWithUnknownKeys(unreadable))) {
                throw projectUnavailable();
            }
            Project owner = ownerToken == null ? null : registry.find(ownerToken);
            if (project == null && owner != null && owner.numericId() == projectId) {
                // Its record was applied between the two lookups: the key is judged by the project it names.
                return authenticatedBy(owner, publicKey);
            }
            if (owner != null && (project == null || !owner.token().equals(project.token()))) {
                throw new Rejection(Outcome.KEY_OF_ANOTHER_PROJECT,
                        "this DSN key belongs to another project than the numeric id in the path");
            }
            throw new Rejection(Outcome.UNAUTHORIZED, owner != null ? "this DSN key has expired: use the project's current DSN"
                    : "missing or invalid credentials: use this project's DSN (its public key as sentry_key, its numeric id in the path)");
        }
        return new DsnAuthenticated(enabled(project), key);
    }

    private DsnAuthenticated authenticatedBy(Project project, String publicKey) {
        DsnKey key = project.activeDsnKey(publicKey, clock.instant());
        if (key == null) {
            throw new Rejection(Outcome.UNAUTHORIZED, "this DSN key has expired: use the project's current DSN");
        }
        return new DsnAuthenticated(enabled(project), key);
    }

    /** The project, unless it is disabled: then the 403 its right key gets. */
    private static Project enabled(Project project) {
        if (project.disabled()) {
            throw new Rejection(Outcome.PROJECT_DISABLED, "this project is disabled; its events are not accepted");
        }
        return project;
    }

    /**
     * Whether this public key is (or was, until it expired or was removed) a DSN key of some
     * project: such a key is no guess, but one still in browsers' code, so refusing it must not
     * count against (and lock out) the addresses, shared by many users behind a NAT, that send it.
     */
    public boolean isKnownDsnKey(String publicKey) {
        return registry.isOrWasDsnKey(publicKey);
    }

    /** The token of the project with this numeric id, or null: for counting outcomes under it. */
    public String tokenOf(long projectId) {
        Project project = registry.byNumericId(projectId);
        return project == null ? null : project.token();
    }

    /**
     * A key of a project whose latest registry record could not be read: refused (fail closed: the
     * record may have revoked the key), with a 503, as the fault is the registry's and goes away
     * once an operator writes a readable record; never counted as a failed authentication. A key
     * the project had says so, and a stranger gets the 401 everyone gets; but when the registry
     * knows the project by its unreadable record only (it started after compaction), its keys are
     * unknown and every key gets the 503: a 401 would count the project's own clients (a platform's
     * one address) as guessing, and guessing gains nothing meanwhile, as no key is accepted.
     */
    private static Rejection projectUnavailable() {
        return new Rejection(Outcome.PROJECT_UNAVAILABLE, "this project's configuration cannot be read at the moment; "
                + "its events are not accepted until an operator fixes it", null, null, 60);
    }

    private static Rejection unauthorized() {
        return new Rejection(Outcome.UNAUTHORIZED,
                "missing or invalid credentials: send Authorization: Bearer <private key of this project>");
    }
}
