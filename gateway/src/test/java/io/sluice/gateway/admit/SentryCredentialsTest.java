package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.sluice.outcomes.Outcome;
import io.sluice.gateway.ingest.Rejection;

class SentryCredentialsTest {
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    @Test
    void theKeyIsReadFromEachSource() {
        assertEquals(KEY, SentryCredentials.fromHead("Sentry sentry_version=7, sentry_client=sentry.java/8.24.0, sentry_key=" + KEY,
                null, "/api/1/envelope/"));
        assertEquals(KEY, SentryCredentials.fromHead(null, "Sentry sentry_key=" + KEY + ",sentry_version=7", "/api/1/store/"));
        assertEquals(KEY, SentryCredentials.fromHead(null, null, "/api/1/envelope/?sentry_key=" + KEY + "&sentry_version=7"));
        assertNull(SentryCredentials.fromHead(null, null, "/api/1/envelope/?sentry_version=7"));
    }

    @Test
    void agreeingSourcesAreOneAndDisagreeingOnesAreRefused() {
        assertEquals(KEY, SentryCredentials.fromHead("Sentry sentry_key=" + KEY, null, "/api/1/envelope/?sentry_key=" + KEY));
        Rejection refused = assertThrows(Rejection.class,
                () -> SentryCredentials.fromHead("Sentry sentry_key=" + KEY, null, "/api/1/envelope/?sentry_key=other"));
        assertEquals(Outcome.BAD_REQUEST, refused.outcome());
        assertEquals(Outcome.BAD_REQUEST, assertThrows(Rejection.class,
                () -> SentryCredentials.fromHead(null, null, "/api/1/envelope/?sentry_key=a&sentry_key=b")).outcome());
    }

    @Test
    void aBearerKeyIsNoSentryCredential() {
        Rejection refused = assertThrows(Rejection.class, () -> SentryCredentials.fromHead(null, "Bearer sk_123", "/api/1/store/"));
        assertEquals(Outcome.UNAUTHORIZED, refused.outcome());
        assertEquals(Outcome.UNAUTHORIZED, assertThrows(Rejection.class,
                () -> SentryCredentials.fromHead("Sentry sentry_version=7", null, "/api/1/store/")).outcome());
    }

    @Test
    void aDsnGivesItsKeyAndTheProjectIdAtTheEndOfItsPath() {
        assertEquals(new SentryCredentials.Dsn(KEY, 42), SentryCredentials.parseDsn("https://" + KEY + "@sluice.example/42"));
        assertEquals(new SentryCredentials.Dsn(KEY, 42), SentryCredentials.parseDsn("http://" + KEY + ":secret@h:8080/prefix/42/"));
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class,
                () -> SentryCredentials.parseDsn("https://sluice.example/42")).outcome());
        assertEquals(Outcome.INVALID_ENVELOPE, assertThrows(Rejection.class,
                () -> SentryCredentials.parseDsn("https://" + KEY + "@sluice.example/abc")).outcome());
    }
}
