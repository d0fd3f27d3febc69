package io.sluice.gateway.admit;

/**
 * The {@code X-Sentry-Rate-Limits} value that makes a Sentry SDK hold back by itself:
 * {@code <retry_after>:<categories>:<scope>:<reason_code>}, categories {@code ;}-separated (an
 * empty list means all). Sluice's quotas are per project, for errors and transactions.
 */
public final class SentryRateLimits {
    private SentryRateLimits() {
    }

    /** @param endpoint the endpoint whose quota is used up, or null for the project's quota (errors and transactions) */
    public static String of(long retryAfterSeconds, Endpoint endpoint) {
        return Math.max(1, retryAfterSeconds) + ":" + (endpoint == null ? "error;transaction" : category(endpoint))
                + ":project:quota_exceeded";
    }

    /** The Sentry data category of an endpoint's events. */
    public static String category(Endpoint endpoint) {
        return endpoint == Endpoint.TRANSACTION ? "transaction" : "error";
    }
}
