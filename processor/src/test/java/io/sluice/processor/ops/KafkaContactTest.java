package io.sluice.processor.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** Kafka is reported unreachable only once no broker has answered for longer than the bound, on a clock the test drives. */
class KafkaContactTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    /** nanoTime starts far from 0: only differences count. */
    private final AtomicLong now = new AtomicLong(-7_000_000_000L);
    private final KafkaContact contact = new KafkaContact(BOUND, now::get);

    @Test
    void aFreshStartBeforeTheFirstAnswerIsNotAnOutage() {
        assertEquals(Optional.empty(), contact.unreachable());
        later(BOUND);
        assertEquals(Optional.empty(), contact.unreachable());
    }

    @Test
    void aStartThatNoBrokerAnswersForLongerThanTheBoundIsAnOutageSinceTheStart() {
        later(Duration.ofSeconds(31));
        assertEquals(Optional.of("Kafka unreachable: no broker has answered since the processor started 31 s ago"),
                contact.unreachable());
    }

    @Test
    void aRecentAnswerIsReachable() {
        later(Duration.ofSeconds(100));
        contact.answered();
        later(Duration.ofSeconds(29));
        assertEquals(Optional.empty(), contact.unreachable());
    }

    @Test
    void silenceUpToTheBoundIsNotAnOutage() {
        contact.answered();
        later(BOUND);
        assertEquals(Optional.empty(), contact.unreachable(), "a blip or a rebalance does not flap readiness");
    }

    @Test
    void silenceLongerThanTheBoundIsAnOutageWithItsLength() {
        contact.answered();
        later(Duration.ofMillis(34_900));
        assertEquals(Optional.of("Kafka unreachable: no broker has answered for 34 s"), contact.unreachable());
    }

    @Test
    void anAnswerAfterAnOutageIsReachableAgain() {
        contact.answered();
        later(Duration.ofMinutes(5));
        contact.answered();
        assertEquals(Optional.empty(), contact.unreachable());
    }

    private void later(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
