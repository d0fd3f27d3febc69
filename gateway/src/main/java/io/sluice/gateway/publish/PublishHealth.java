package io.sluice.gateway.publish;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * Whether this gateway's publishes are failing: a run of at least {@link #MIN_FAILURES} failures
 * within the window and no success in it (a topic below {@code min.insync.replicas}, a topic gone,
 * Kafka away, a full producer buffer). {@code /readyz} says so with the last error, and the
 * {@code sluice_gateway_publish_failing} gauge is 1 meanwhile.
 *
 * <p>Any success in the window keeps the gateway ready: an outage of some partitions or of one
 * topic (a partial loss of in-sync replicas) leaves every gateway publishing the rest, and none
 * leaves the balancer for it. Failures age out of the window, so a gateway the balancer stopped
 * sending to is ready again after the window without needing traffic to prove it.
 */
public final class PublishHealth {
    /** Fewer failures than this are a blip: retried by clients, not a reason to leave the balancer. */
    public static final int MIN_FAILURES = 5;

    private final long windowNanos;
    private final LongSupplier nanoClock;
    /** The times of the last MIN_FAILURES failures since the last success, oldest first. */
    private final ArrayDeque<Long> failures = new ArrayDeque<>();
    private long failuresSinceSuccess;
    private long lastSuccessNanos;
    private boolean succeededOnce;
    private String lastError;

    /** @param window how far back failures count; zero: never failing */
    public PublishHealth(Duration window, LongSupplier nanoClock) {
        this.windowNanos = window.toNanos();
        this.nanoClock = nanoClock;
    }

    public synchronized void succeeded() {
        lastSuccessNanos = nanoClock.getAsLong();
        succeededOnce = true;
        failures.clear();
        failuresSinceSuccess = 0;
    }

    public synchronized void failed(Throwable error) {
        failures.addLast(nanoClock.getAsLong());
        if (failures.size() > MIN_FAILURES) {
            failures.removeFirst();
        }
        failuresSinceSuccess++;
        lastError = error.getClass().getSimpleName() + ": " + error.getMessage();
    }

    /** Why this gateway's publishes are failing now, or null while they are not. */
    public synchronized String failingReason() {
        if (windowNanos == 0 || failures.size() < MIN_FAILURES) {
            return null;
        }
        long since = nanoClock.getAsLong() - windowNanos;
        if (failures.peekFirst() < since || (succeededOnce && lastSuccessNanos >= since)) {
            return null;
        }
        return "publishing to Kafka fails: the last " + failuresSinceSuccess + " publishes failed, none succeeded in the last "
                + Duration.ofNanos(windowNanos).toSeconds() + " s; last error: " + lastError;
    }

    public boolean failing() {
        return failingReason() != null;
    }
}
