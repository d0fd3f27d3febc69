package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.DsnKey;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectKey;
import io.sluice.projects.Secrets;
import io.sluice.gateway.ingest.Rejection;

/**
 * Whether a token or numeric id exists must not show in how long its refusal takes: an unknown
 * one does the same work as a known one with a wrong key. The work is recorded as the steps taken
 * (each lookup, and each key check, which reads the clock once); no timing is measured.
 */
class AuthenticatorTest {
    private static final String KEY = Secrets.newKey();
    private static final DsnKey DSN_KEY = DsnKey.create(Instant.EPOCH);
    private static final Project PROJECT = new Project(Secrets.newToken(), "shop", false,
            List.of(ProjectKey.of("k1", KEY, null)), Instant.EPOCH, null, null, List.of(DSN_KEY));
    private static final String WRONG_KEY = Secrets.newKey();

    private final List<String> steps = new ArrayList<>();
    private final Authenticator authenticator = new Authenticator(new RecordingLookup(), new RecordingClock());

    @Test
    void anUnknownTokenTakesTheStepsOfAKnownTokenWithAWrongKey() {
        List<String> known = refusalSteps(() -> authenticator.authenticate(PROJECT.token(), "Bearer " + WRONG_KEY));
        List<String> unknown = refusalSteps(() -> authenticator.authenticate(Secrets.newToken(), "Bearer " + WRONG_KEY));

        String hash = HexFormat.of().formatHex(Secrets.sha256(WRONG_KEY));
        assertEquals(List.of("find", "check a key", "tokenOwningKey " + hash, "isUnreadable"), known);
        assertEquals(known, unknown);
    }

    @Test
    void anUnknownNumericIdTakesTheStepsOfAKnownOneWithAWrongDsnKey() {
        String wrong = Secrets.newPublicKey();
        List<String> known = refusalSteps(() -> authenticator.authenticateDsn(PROJECT.numericId(), wrong));
        List<String> unknown = refusalSteps(() -> authenticator.authenticateDsn(PROJECT.numericId() + 1, wrong));

        assertEquals(List.of("byNumericId", "check a key", "tokenOwningDsnKey " + wrong, "unreadableTokenOf"), known);
        assertEquals(known, unknown);
    }

    @Test
    void theRightKeysStillAuthenticate() {
        assertEquals(PROJECT, authenticator.authenticate(PROJECT.token(), "Bearer " + KEY));
        assertEquals(DSN_KEY, authenticator.authenticateDsn(PROJECT.numericId(), DSN_KEY.publicKey()).key());
    }

    @Test
    void aProjectThatArrivesBetweenItsLookupsIsAuthenticatedByItsDsnKeyNotCalledAnothers() {
        Authenticator racing = new Authenticator(new ArrivingLookup(), Clock.fixed(Instant.parse("2026-11-26T18:00:00Z"), ZoneOffset.UTC));

        assertEquals(DSN_KEY, racing.authenticateDsn(PROJECT.numericId(), DSN_KEY.publicKey()).key());
    }

    @Test
    void aProjectThatArrivesBetweenItsLookupsIsAuthenticatedByItsPrivateKey() {
        Authenticator racing = new Authenticator(new ArrivingLookup(), Clock.fixed(Instant.parse("2026-11-26T18:00:00Z"), ZoneOffset.UTC));

        assertEquals(PROJECT, racing.authenticate(PROJECT.token(), "Bearer " + KEY));
    }

    private List<String> refusalSteps(Runnable attempt) {
        steps.clear();
        Rejection refused = assertThrows(Rejection.class, attempt::run);
        assertEquals(Outcome.UNAUTHORIZED, refused.outcome());
        return List.copyOf(steps);
    }

    /** The one project, recording each lookup. */
    private final class RecordingLookup implements ProjectLookup {
        @Override
        public Project find(String token) {
            steps.add("find");
            return PROJECT.token().equals(token) ? PROJECT : null;
        }

        @Override
        public String tokenOwningKey(byte[] keyHash) {
            steps.add("tokenOwningKey " + HexFormat.of().formatHex(keyHash));
            return null;
        }

        @Override
        public Project byNumericId(long id) {
            steps.add("byNumericId");
            return id == PROJECT.numericId() ? PROJECT : null;
        }

        @Override
        public String tokenOwningDsnKey(String publicKey) {
            steps.add("tokenOwningDsnKey " + publicKey);
            return null;
        }

        @Override
        public boolean isUnreadable(String token) {
            steps.add("isUnreadable");
            return false;
        }

        @Override
        public String unreadableTokenOf(long id) {
            steps.add("unreadableTokenOf");
            return null;
        }

        @Override
        public boolean isUnreadableWithUnknownKeys(String token) {
            steps.add("isUnreadableWithUnknownKeys");
            return false;
        }

        @Override
        public boolean isOrWasDsnKey(String publicKey) {
            steps.add("isOrWasDsnKey");
            return false;
        }
    }

    /**
     * The registry as a new project's record is applied while a request is judged: the first
     * lookup by token or numeric id misses it, every later lookup finds it with its keys.
     */
    private static final class ArrivingLookup implements ProjectLookup {
        private boolean arrived;

        private Project afterFirstLookup() {
            Project seen = arrived ? PROJECT : null;
            arrived = true;
            return seen;
        }

        @Override
        public Project find(String token) {
            return PROJECT.token().equals(token) ? afterFirstLookup() : null;
        }

        @Override
        public Project byNumericId(long id) {
            return id == PROJECT.numericId() ? afterFirstLookup() : null;
        }

        @Override
        public String tokenOwningKey(byte[] keyHash) {
            return PROJECT.token();
        }

        @Override
        public String tokenOwningDsnKey(String publicKey) {
            return PROJECT.token();
        }

        @Override
        public boolean isUnreadable(String token) {
            return false;
        }

        @Override
        public String unreadableTokenOf(long id) {
            return null;
        }

        @Override
        public boolean isUnreadableWithUnknownKeys(String token) {
            return false;
        }

        @Override
        public boolean isOrWasDsnKey(String publicKey) {
            return true;
        }
    }

    /** Read once per key check (whether the keys compared are active now). */
    private final class RecordingClock extends Clock {
        @Override
        public Instant instant() {
            steps.add("check a key");
            return Instant.parse("2026-11-26T18:00:00Z");
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
