package io.sluice.gateway.admit;

import io.sluice.gateway.ingest.Endpoint;

/**
 * The {@code X-Sentry-Rate-Limits} value that makes a Sentry SDK hold back by itself:
 * {@code <retry_after>:<categories>:<scope>:<reason_code>}, categories {@code ;}-separated (an
 * empty list means all). Sluice's quotas are per project, for errors, transactions and sessions,
 * and per endpoint.
 */
public final class SentryRateLimits {
    private SentryRateLimits() {
    }

    /** The categories of everything the project's own quota counts: every endpoint's. */
    private static final String PROJECT_CATEGORIES = java.util.Arrays.stream(Endpoint.values()).map(SentryRateLimits::category)
            .collect(java.util.stream.Collectors.joining(";"));

    /** @param endpoint the endpoint whose quota is used up, or null for the project's quota (every endpoint's events) */
    public static String of(long retryAfterSeconds, Endpoint endpoint) {
        return Math.max(1, retryAfterSeconds) + ":" + (endpoint == null ? PROJECT_CATEGORIES : category(endpoint))
                + ":project:quota_exceeded";
    }

    /**
     * Both values as one: one entry per categories, scope and reason, with the longer wait, so a
     * header merged over many items stays as short as the limits it names.
     */
    public static String merge(String earlier, String later) {
        java.util.Map<String, Long> waits = new java.util.LinkedHashMap<>();
        for (String entry : (earlier + "," + later).split(",")) {
            int colon = entry.indexOf(':');
            if (colon > 0) {
                long wait;
                try {
                    wait = Long.parseLong(entry.substring(0, colon).strip());
                } catch (NumberFormatException notOurs) {
                    continue;
                }
                waits.merge(entry.substring(colon + 1).strip(), wait, Math::max);
            }
        }
        StringBuilder merged = new StringBuilder();
        waits.forEach((limit, wait) -> merged.append(merged.isEmpty() ? "" : ",").append(wait).append(':').append(limit));
        return merged.toString();
    }

    /** The Sentry data category of an endpoint's events. */
    public static String category(Endpoint endpoint) {
        return switch (endpoint) {
            case TRANSACTION -> "transaction";
            case ERROR_REPORT -> "error";
            case SESSION -> "session";
        };
    }
}
