package io.sluice.gateway.admit;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.sluice.outcomes.Outcome;
import io.sluice.gateway.ingest.Rejection;

/**
 * Limits failed authentications per client address, so keys cannot be guessed at speed: each
 * address may fail {@code burst} times at once and {@code perMinute} times a minute after that.
 * Past the limit every request from the address gets 429 before its credentials are looked at,
 * so a guess tells nothing, until the budget refills.
 *
 * <p>The table is bounded whatever the number of addresses: addresses whose budget has refilled
 * are forgotten (swept at most once a minute), and beyond {@code maxTracked} the address that
 * first failed longest ago is forgotten first. A lookup, made for every request, takes no lock
 * for an address that never failed, and only that address's own lock otherwise; only an
 * address's first failure takes the table's lock.
 */
public final class FailedAuthLimiter {
    static final int MAX_TRACKED = 100_000;
    private static final long SWEEP_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final double perSecond;
    private final double burst;
    private final int maxTracked;
    private final Map<InetAddress, Budget> budgets = new ConcurrentHashMap<>();
    /** The tracked addresses, oldest first; changed only under its own lock, together with {@link #budgets}. */
    private final ArrayDeque<InetAddress> order = new ArrayDeque<>();
    private boolean swept;
    private long lastSweepNanos;

    public FailedAuthLimiter(long perMinute, long burst) {
        this(perMinute, burst, MAX_TRACKED);
    }

    FailedAuthLimiter(long perMinute, long burst, int maxTracked) {
        this.perSecond = perMinute / 60.0;
        this.burst = burst;
        this.maxTracked = maxTracked;
    }

    /** Throws 429 while this address has used up its failures. */
    public void check(InetAddress address, long nowNanos) {
        Budget budget = address == null ? null : budgets.get(address);
        if (budget != null && budget.exhausted(nowNanos)) {
            throw new Rejection(Outcome.TOO_MANY_FAILED_ATTEMPTS,
                    "too many failed authentications from this address; retry later", null, null, 60);
        }
    }

    /** Counts one failed authentication of this address. */
    public void failed(InetAddress address, long nowNanos) {
        if (address == null) {
            return;
        }
        Budget budget = budgets.get(address);
        if (budget == null) {
            budget = track(address, nowNanos);
        }
        budget.spend(nowNanos);
    }

    /** How many addresses are tracked now. */
    int tracked() {
        return budgets.size();
    }

    private Budget track(InetAddress address, long nowNanos) {
        synchronized (order) {
            Budget budget = budgets.get(address);
            if (budget != null) {
                return budget;
            }
            // Sweeping is linear in the table: on a timer, never per failure, so a flood of new
            // addresses costs constant work each.
            if (!swept || nowNanos - lastSweepNanos > SWEEP_INTERVAL_NANOS) {
                swept = true;
                lastSweepNanos = nowNanos;
                order.removeIf(tracked -> budgets.get(tracked).full(nowNanos) && budgets.remove(tracked) != null);
            }
            while (budgets.size() >= maxTracked) {
                budgets.remove(order.poll());
            }
            budget = new Budget(burst, nowNanos);
            budgets.put(address, budget);
            order.add(address);
            return budget;
        }
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
            left = Math.min(burst, left + Math.max(0, nowNanos - lastNanos) / 1e9 * perSecond);
            lastNanos = Math.max(lastNanos, nowNanos);
        }
    }
}
