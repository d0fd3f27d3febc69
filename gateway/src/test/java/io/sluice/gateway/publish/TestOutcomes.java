package io.sluice.gateway.publish;

import java.time.Duration;

import org.apache.kafka.clients.producer.Producer;

/** Outcomes for tests outside this package: every token known, flushed hourly (so never, in a test). */
public final class TestOutcomes {
    private TestOutcomes() {
    }

    public static Outcomes to(Producer<byte[], byte[]> producer) {
        return new Outcomes(token -> true, producer, "sluice.outcomes", Duration.ofHours(1));
    }
}
