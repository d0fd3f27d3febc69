package io.sluice.gateway.admit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.sluice.outcomes.Outcome;
import io.sluice.projects.Project;
import io.sluice.projects.Quota;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;

/**
 * Enforces projects' quotas with one token bucket per project (and per endpoint where the project
 * has an endpoint quota). A quota holds across all gateways together: each gateway's bucket fills
 * at its {@link QuotaShares part} of the quota's rate and holds that part of its burst, the parts
 * following where the quota's traffic goes.
 */
public final class QuotaLimiter {
    private final double scale;
    private final QuotaShares shares;
    /** How many times its quota a project's filtered events may give back. */
    static final int FILTERED_TIMES = 10;
    /** After a project's token, the key of its filtered events' bucket (a token has no {@code #}). */
    private static final String FILTERED = "#filtered";

    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    /** A gateway alone, allowing {@code scale} of every quota. */
    public QuotaLimiter(double scale) {
        this(scale, QuotaShares.WHOLE);
    }

    /**
     * @param scale  the part of every quota all gateways together allow (1; less only to hold
     *               projects below their quotas, as tests do)
     * @param shares this gateway's part of each quota
     */
    public QuotaLimiter(double scale, QuotaShares shares) {
        this.scale = scale;
        this.shares = shares;
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
        Rejection refused = takeProject(project, nowNanos);
        return refused != null ? refused : tryAdmitEndpoint(project, endpoint, nowNanos);
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
        Rejection refused = take(endpointKey(project, endpoint), endpointQuota, endpoint.pathSegment() + " endpoint", nowNanos);
        return refused == null ? null
                : refused.withSentryRateLimits(SentryRateLimits.of(refused.retryAfterSeconds(), endpoint));
    }

    /**
     * Gives back the one event an event of this endpoint took from the project's quota and from the
     * endpoint's (an event filtered once read, which takes none): each bucket gets its token back, up to
     * its capacity. A bucket that changed since (a new quota) is left as it is. A project's filtered
     * events give back at most {@link #FILTERED_TIMES} its quota (rate and burst); beyond that a
     * filtered event keeps its token, as any other: filtering is cheap, but never free for a flood.
     */
    public void giveBack(Project project, Endpoint endpoint, long nowNanos) {
        Quota quota = project.quota();
        if (quota != null && !takeFiltered(project.token(), quota, nowNanos)) {
            return;
        }
        giveBack(project.token(), quota);
        giveBack(endpointKey(project, endpoint), project.endpointQuotas().get(endpoint.pathSegment()));
    }

    /** Takes one token of the project's filtered events' bucket; false when it is used up. */
    private boolean takeFiltered(String token, Quota quota, long nowNanos) {
        return takeToken(token + FILTERED, quota, FILTERED_TIMES, partOf(token), nowNanos) == 0;
    }

    private void giveBack(String bucketKey, Quota quota) {
        TokenBucket bucket = quota == null ? null : buckets.get(bucketKey);
        if (bucket != null && bucket.quota.equals(quota)) {
            bucket.giveBack();
        }
    }

    private static String endpointKey(Project project, Endpoint endpoint) {
        return project.token() + "/" + endpoint.pathSegment();
    }

    private Rejection take(String bucketKey, Quota quota, String scope, long nowNanos) {
        if (quota == null) {
            return null;
        }
        shares.asked(bucketKey);
        long waitSeconds = takeToken(bucketKey, quota, 1, partOf(bucketKey), nowNanos);
        return waitSeconds > 0 ? refusal(quota, scope, waitSeconds) : null;
    }

    /**
     * Takes one token from a bucket that holds {@code times} the quota (rate and burst) at this
     * gateway's {@code part}: 0, or the whole seconds until one is there.
     */
    private long takeToken(String bucketKey, Quota quota, int times, double part, long nowNanos) {
        double share = scale * part;
        // At least one event at once: a part of a small burst below one would refuse everything here.
        double rate = Math.max(quota.ratePerSecond() * times * share, 0.001);
        double burst = Math.max(quota.burst() * times * share, 1);
        // A changed quota starts a full bucket; a changed part of the same quota keeps what the bucket holds.
        TokenBucket bucket = buckets.compute(bucketKey, (key, existing) ->
                existing != null && existing.quota.equals(quota) ? existing : new TokenBucket(quota, rate, burst, nowNanos));
        return bucket.take(rate, burst, nowNanos);
    }

    /**
     * This gateway's part of the quota, in (0, 1]. A part outside it is a broken split, not another
     * quota: it is taken as the whole, as a gateway alone would, so that it never allows more than
     * the quota here, nor refuses every event (an infinite or NaN part fills no bucket), nor tells
     * clients to wait 1,000 s (a part at or below 0).
     */
    private double partOf(String bucketKey) {
        double part = shares.shareOf(bucketKey);
        return part > 0 && part <= 1 ? part : 1;
    }

    private static Rejection refusal(Quota quota, String scope, long waitSeconds) {
        return new Rejection(Outcome.QUOTA_EXCEEDED,
                "this project's " + scope + " quota of " + quota + " is used up; retry after " + waitSeconds + " s",
                null, quota.ratePerSecond() + "/s burst " + quota.burst(), waitSeconds);
    }

    /**
     * Refills at {@code rate} tokens a second up to {@code capacity}; both change as this gateway's
     * part of the quota does, the tokens it holds kept (up to the new capacity).
     */
    private static final class TokenBucket {
        final Quota quota;
        private double rate;
        private double capacity;
        private double tokens;
        private long lastNanos;

        TokenBucket(Quota quota, double rate, double capacity, long nowNanos) {
            this.quota = quota;
            this.rate = rate;
            this.capacity = capacity;
            this.tokens = capacity;
            this.lastNanos = nowNanos;
        }

        /** 0 when a token was taken, otherwise the whole seconds until one is there; then refills at {@code newRate}. */
        synchronized long take(double newRate, double newCapacity, long nowNanos) {
            tokens = Math.min(capacity, tokens + Math.max(0, nowNanos - lastNanos) / 1e9 * rate);
            lastNanos = Math.max(lastNanos, nowNanos);
            rate = newRate;
            capacity = newCapacity;
            tokens = Math.min(tokens, capacity);
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - tokens) / rate));
        }

        synchronized void giveBack() {
            tokens = Math.min(capacity, tokens + 1);
        }
    }
}
