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
        take(project.token(), project.quota(), "project", nowNanos);
        Quota endpointQuota = project.endpointQuotas().get(endpoint.pathSegment());
        take(project.token() + "/" + endpoint.pathSegment(), endpointQuota, endpoint.pathSegment() + " endpoint", nowNanos);
    }

    private void take(String bucketKey, Quota quota, String scope, long nowNanos) {
        if (quota == null) {
            return;
        }
        double rate = Math.max(quota.ratePerSecond() * share, 0.001);
        double burst = Math.max(quota.burst() * share, 1);
        TokenBucket bucket = buckets.compute(bucketKey, (key, existing) ->
                existing != null && existing.rate == rate && existing.capacity == burst ? existing : new TokenBucket(rate, burst, nowNanos));
        long waitSeconds = bucket.take(nowNanos);
        if (waitSeconds > 0) {
            throw new Rejection(Outcome.QUOTA_EXCEEDED,
                    "this project's " + scope + " quota of " + quota + " is used up; retry after " + waitSeconds + " s",
                    null, quota.ratePerSecond() + "/s burst " + quota.burst(), waitSeconds);
        }
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
