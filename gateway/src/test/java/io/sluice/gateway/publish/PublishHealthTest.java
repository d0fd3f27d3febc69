package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.junit.jupiter.api.Test;

class PublishHealthTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final PublishHealth health = new PublishHealth(Duration.ofSeconds(10), now::get);

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            health.failed(new NotEnoughReplicasException("too few in-sync replicas"));
        }
    }

    @Test
    void fiveFailuresInTheWindowAndNoSuccessMeanFailingWithTheLastError() {
        fail(4);
        assertNull(health.failingReason(), "four are a blip");
        fail(1);
        assertEquals("publishing to Kafka fails: the last 5 publishes failed, none succeeded in the last 10 s; last error: "
                + "NotEnoughReplicasException: too few in-sync replicas", health.failingReason());
    }

    /** A partial outage (some partitions, one topic) leaves the gateway publishing the rest: it stays in the balancer. */
    @Test
    void oneSuccessInTheWindowKeepsTheGatewayReady() {
        health.succeeded();
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        fail(20);
        assertNull(health.failingReason());
    }

    @Test
    void aSuccessEndsTheRun() {
        fail(5);
        health.succeeded();
        assertNull(health.failingReason());
    }

    /** Unready, the gateway gets no traffic to prove it recovered: the run ages out of the window. */
    @Test
    void failuresOlderThanTheWindowAgeOutWithoutTraffic() {
        fail(5);
        now.addAndGet(Duration.ofSeconds(10).toNanos() + 1);
        assertNull(health.failingReason());
    }

    @Test
    void aWindowOfZeroNeverFails() {
        PublishHealth off = new PublishHealth(Duration.ZERO, now::get);
        for (int i = 0; i < 10; i++) {
            off.failed(new NotEnoughReplicasException("x"));
        }
        assertNull(off.failingReason());
    }
}
