package io.sluice.gateway.admit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.Project;
import io.sluice.projects.Quota;

/**
 * Enforces projects' quotas with one token bucket per project (and per endpoint where the project
 * has an endpoint quota). Quotas are enforced per gateway instance: each gateway allows
 * {@code share} of the configured rate and burst, so with N gateways behind a load balancer set
 * the share to 1/N (SLUICE_GATEWAY_QUOTA_SHARE).
 */
public final class QuotaLimiter {
    private final double share;
    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    public QuotaLimiter(double share) {
        this.share = share;
    }

    /** Takes one event from the project's buckets, or throws a 429 {@link Rejection} naming the limit. */
    public void admit(Project project, Endpoint endpoint, long nowNanos) {
        Rejection refused = tryAdmit(project, endpoint, nowNanos);
        if (refused != null) {
            throw refused;
        }
    }

    /**
     * Takes one event from the project's buckets; or, when one is used up, returns the 429 that
     * refuses it, with the {@code X-Sentry-Rate-Limits} value that tells a Sentry SDK which
     * categories to hold back: both for the project's quota, the endpoint's for an endpoint quota.
     */
    public Rejection tryAdmit(Project project, Endpoint endpoint, long nowNanos) {
        Rejection refused = take(project.token(), project.quota(), "project", nowNanos);
        if (refused != null) {
            return refused.withSentryRateLimits(SentryRateLimits.of(refused.retryAfterSeconds(), null));
        }
        Quota endpointQuota = project.endpointQuotas().get(endpoint.pathSegment());
        refused = take(project.token() + "/" + endpoint.pathSegment(), endpointQuota, endpoint.pathSegment() + " endpoint",
                nowNanos);
        return refused == null ? null
                : refused.withSentryRateLimits(SentryRateLimits.of(refused.retryAfterSeconds(), endpoint));
    }

    /**
     * Takes one event from the project's own quota (not an endpoint's: the Sentry endpoints know
     * the kinds of their items only from the body), or returns the 429 that refuses it, with
     * {@code X-Sentry-Rate-Limits}. Taken from a Sentry request's head, as for every authenticated
     * v1 request: holding the gateway's memory is never free.
     */
    public Rejection takeProject(Project project, long nowNanos) {
        Rejection refused = take(project.token(), project.quota(), "project", nowNanos);
        return refused == null ? null : refused.withSentryRateLimits(SentryRateLimits.of(refused.retryAfterSeconds(), null));
    }

    /** Takes one event from the endpoint's quota only (the project's was taken by {@link #takeProject}); null or the 429. */
    public Rejection tryAdmitEndpoint(Project project, Endpoint endpoint, long nowNanos) {
        Quota endpointQuota = project.endpointQuotas().get(endpoint.pathSegment());
        Rejection refused = take(project.token() + "/" + endpoint.pathSegment(), endpointQuota, endpoint.pathSegment() + " endpoint",
                nowNanos);
        return refused == null ? null
                : refused.withSentryRateLimits(SentryRateLimits.of(refused.retryAfterSeconds(), endpoint));
    }

    private Rejection take(String bucketKey, Quota quota, String scope, long nowNanos) {
        if (quota == null) {
            return null;
        }
        long waitSeconds = bucket(bucketKey, quota, nowNanos).take(nowNanos);
        return waitSeconds > 0 ? refusal(quota, scope, waitSeconds) : null;
    }

    private TokenBucket bucket(String bucketKey, Quota quota, long nowNanos) {
        double rate = Math.max(quota.ratePerSecond() * share, 0.001);
        double burst = Math.max(quota.burst() * share, 1);
        return buckets.compute(bucketKey, (key, existing) ->
                existing != null && existing.rate == rate && existing.capacity == burst ? existing : new TokenBucket(rate, burst, nowNanos));
    }

    private static Rejection refusal(Quota quota, String scope, long waitSeconds) {
        return new Rejection(Outcome.QUOTA_EXCEEDED,
                "this project's " + scope + " quota of " + quota + " is used up; retry after " + waitSeconds + " s",
                null, quota.ratePerSecond() + "/s burst " + quota.burst(), waitSeconds);
    }

    /** Refills at {@code rate} tokens a second up to {@code capacity}. */
    private static final class TokenBucket {
        final double rate;
        final double capacity;
        private double tokens;
        private long lastNanos;

        TokenBucket(double rate, double capacity, long nowNanos) {
            this.rate = rate;
            this.capacity = capacity;
            this.tokens = capacity;
            this.lastNanos = nowNanos;
        }

        /** 0 when a token is there now, otherwise the whole seconds until one is; takes nothing. */
        synchronized long secondsUntilOne(long nowNanos) {
            tokens = Math.min(capacity, tokens + (nowNanos - lastNanos) / 1e9 * rate);
            lastNanos = Math.max(lastNanos, nowNanos);
            return tokens >= 1 ? 0 : Math.max(1, (long) Math.ceil((1 - tokens) / rate));
        }

        /** 0 when a token was taken, otherwise the whole seconds until one is there. */
        synchronized long take(long nowNanos) {
            tokens = Math.min(capacity, tokens + (nowNanos - lastNanos) / 1e9 * rate);
            lastNanos = nowNanos;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - tokens) / rate));
        }
    }
}
