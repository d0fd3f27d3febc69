package io.sluice.auth;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.ingest.Rejection;

/**
 * Limits failed authentications per source address, so keys cannot be guessed at speed: each
 * address may fail {@code burst} times at once and {@code perMinute} times a minute after that.
 * Past the limit every request from the address gets 429 before its credentials are looked at,
 * so a guess tells nothing, until the budget refills. Addresses with no recent failure are
 * forgotten, so the table stays as small as the set of misbehaving clients.
 */
public final class FailedAuthLimiter {
    private static final int MAX_TRACKED = 100_000;

    private final double perSecond;
    private final double burst;
    private final Map<InetAddress, Budget> budgets = new ConcurrentHashMap<>();

    public FailedAuthLimiter(long perMinute, long burst) {
        this.perSecond = perMinute / 60.0;
        this.burst = burst;
    }

    /** Throws 429 while this address has used up its failures. */
    public void check(InetAddress address, long nowNanos) {
        Budget budget = address == null ? null : budgets.get(address);
        if (budget != null && budget.exhausted(nowNanos)) {
            throw new Rejection(HttpResponseStatus.TOO_MANY_REQUESTS, "too_many_failed_attempts",
                    "too many failed authentications from this address; retry later", null, null, 60);
        }
    }

    /** Counts one failed authentication of this address. */
    public void failed(InetAddress address, long nowNanos) {
        if (address == null) {
            return;
        }
        if (budgets.size() > MAX_TRACKED) {
            budgets.entrySet().removeIf(entry -> entry.getValue().full(nowNanos));
        }
        budgets.computeIfAbsent(address, a -> new Budget(burst, nowNanos)).spend(nowNanos);
    }

    private final class Budget {
        private double left;
        private long lastNanos;

        Budget(double left, long nowNanos) {
            this.left = left;
            this.lastNanos = nowNanos;
        }

        synchronized boolean exhausted(long nowNanos) {
            refill(nowNanos);
            return left < 1;
        }

        synchronized void spend(long nowNanos) {
            refill(nowNanos);
            left = Math.max(0, left - 1);
        }

        synchronized boolean full(long nowNanos) {
            refill(nowNanos);
            return left >= burst;
        }

        private void refill(long nowNanos) {
            left = Math.min(burst, left + (nowNanos - lastNanos) / 1e9 * perSecond);
            lastNanos = nowNanos;
        }
    }
}
