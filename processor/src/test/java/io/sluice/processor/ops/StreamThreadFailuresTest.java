package io.sluice.processor.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/** Three stream-thread failures within five minutes make the processor unhealthy; older ones are forgotten. */
class StreamThreadFailuresTest {
    private static final StreamsException FAILED_TASK = new StreamsException("Exception caught in process. taskId=1_2",
            new SerializationException("traffic counts from sluice-traffic-1m-changelog in an unknown format"));
    private static final String LAST = "StreamsException: Exception caught in process. taskId=1_2 "
            + "(cause: SerializationException: traffic counts from sluice-traffic-1m-changelog in an unknown format)";

    private long now = 1_000_000_000L; // nanoTime may be any number, also negative: only differences count
    private final StreamThreadFailures failures = new StreamThreadFailures(StreamThreadFailures.DEFAULT_SESSION_TIMEOUT, () -> now);

    @Test
    void threeFailuresWithinFiveMinutesMakeTheProcessorUnhealthy() {
        failAfter(Duration.ZERO);
        failAfter(Duration.ofMinutes(2));
        failAfter(Duration.ofSeconds(179)); // 4 min 59 s after the first
        assertEquals(Optional.of("stream threads failed 3 times in the last 5 min; last: " + LAST), failures.unhealthy());
    }

    @Test
    void twoFailuresWithinFiveMinutesAreWhatATransientFailureLooksLike() {
        failAfter(Duration.ZERO);
        failAfter(Duration.ofSeconds(1));
        assertEquals(Optional.empty(), failures.unhealthy());
    }

    @Test
    void everyThreadFailingAtOnceIsOneFailure() {
        for (int thread = 0; thread < 4; thread++) {
            failAfter(Duration.ofMillis(100));
        }
        assertEquals(Optional.empty(), failures.unhealthy());
        failAfter(Duration.ofSeconds(6)); // a session timeout later: the task failed again
        failAfter(Duration.ofSeconds(6));
        assertEquals(Optional.of("stream threads failed 3 times in the last 5 min; last: " + LAST), failures.unhealthy());
        assertEquals(6, failures.total(), "the metric counts every thread");
    }

    @Test
    void failuresOlderThanFiveMinutesAreForgotten() {
        failAfter(Duration.ZERO);
        failAfter(Duration.ofSeconds(10));
        failAfter(Duration.ofSeconds(10));
        advance(Duration.ofMinutes(5).minusSeconds(20).minusNanos(1)); // the first is 1 ns short of 5 min old
        assertEquals(Optional.of("stream threads failed 3 times in the last 5 min; last: " + LAST), failures.unhealthy());
        advance(Duration.ofNanos(1));
        assertEquals(Optional.empty(), failures.unhealthy());
        failAfter(Duration.ofSeconds(1)); // two of the window and this one
        assertEquals(Optional.of("stream threads failed 3 times in the last 5 min; last: " + LAST), failures.unhealthy());
        advance(Duration.ofMinutes(5));
        assertEquals(Optional.empty(), failures.unhealthy());
        assertEquals(4, failures.total(), "the total keeps every failure");
    }

    @Test
    void aLongSessionTimeoutWidensTheWindowToHoldThreeOfItsFailures() {
        StreamThreadFailures slow = new StreamThreadFailures(Duration.ofMinutes(3), () -> now);
        slow.record(FAILED_TASK);
        advance(Duration.ofMinutes(3)); // a failing task comes back once a session has timed out
        slow.record(FAILED_TASK);
        advance(Duration.ofMinutes(3));
        slow.record(FAILED_TASK);
        assertEquals(Optional.of("stream threads failed 3 times in the last 9 min; last: " + LAST), slow.unhealthy());
        advance(Duration.ofMinutes(3));
        assertEquals(Optional.empty(), slow.unhealthy(), "the first failure is 9 min old");
    }

    @Test
    void theDescriptionIsOneLineOfAtMost300Characters() {
        String longLine = "x".repeat(500);
        assertEquals("IllegalStateException: first line", StreamThreadFailures.describe(
                new IllegalStateException("first line\n\tat some.Frame(Frame.java:1)\nsecond line")));
        assertEquals("IllegalStateException: tab and bell", StreamThreadFailures.describe(new IllegalStateException("tab\tand\u0007bell")));
        assertEquals("NullPointerException", StreamThreadFailures.describe(new NullPointerException()));
        String bounded = StreamThreadFailures.describe(new StreamsException(longLine, new SerializationException("why")));
        assertEquals(300, bounded.length());
        assertEquals("StreamsException: " + "x".repeat(281) + "…", bounded);
    }

    private void failAfter(Duration wait) {
        advance(wait);
        failures.record(FAILED_TASK);
    }

    private void advance(Duration wait) {
        now += wait.toNanos();
    }
}
