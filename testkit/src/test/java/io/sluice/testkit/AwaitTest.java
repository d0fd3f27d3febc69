package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void untilReturnsTheExpectedValueOnceReached() {
        AtomicInteger polls = new AtomicInteger();
        assertEquals(3, Await.until(Duration.ofSeconds(10), 3, polls::incrementAndGet));
        assertEquals(3, polls.get());
    }

    @Test
    void untilFailsOnTimeoutNamingWhatWasAwaitedTheExpectedAndTheLastValue() {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> Await.until("the answer", Duration.ofMillis(300), "42", () -> "41"));
        assertTrue(failure.getMessage().matches("awaited the answer for \\d+ ms: expected <42> but the last value was <41>"),
                failure.getMessage());
    }

    @Test
    void untilWithoutADescriptionNamesTheCallingLine() {
        AssertionError failure = assertThrows(AssertionError.class, () -> Await.until(Duration.ofMillis(200), 1, () -> 0));
        assertTrue(failure.getMessage().startsWith("awaited the condition at io.sluice.testkit.AwaitTest."), failure.getMessage());
        assertTrue(failure.getMessage().contains("(AwaitTest.java:"), failure.getMessage());
        assertTrue(failure.getMessage().endsWith("expected <1> but the last value was <0>"), failure.getMessage());
    }

    @Test
    void waitThenLookReturnsTheLastValueWithoutFailing() {
        assertEquals("41", Await.waitThenLook(Duration.ofMillis(200), "42", () -> "41"));
    }
}
