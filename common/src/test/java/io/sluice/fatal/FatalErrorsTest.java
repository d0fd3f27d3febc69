package io.sluice.fatal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

class FatalErrorsTest {
    private final List<Integer> halts = new ArrayList<>();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final FatalErrors handler = new FatalErrors(halts::add, new PrintStream(printed, true, StandardCharsets.UTF_8));

    @Test
    void anOutOfMemoryErrorHaltsWithExitCode3() {
        handler.uncaughtException(new Thread("kafka-producer-network-thread"), new OutOfMemoryError("Java heap space"));
        assertEquals(List.of(3), halts);
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("fatal java.lang.OutOfMemoryError: Java heap space in thread "
                + "kafka-producer-network-thread"), printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aStackOverflowHalts() {
        handler.uncaughtException(new Thread("t"), new StackOverflowError());
        assertEquals(List.of(3), halts);
    }

    @Test
    void anOutOfMemoryErrorWrappedInAnotherExceptionHalts() {
        handler.uncaughtException(new Thread("t"), new IllegalStateException(new ExecutionException(new OutOfMemoryError("Direct buffer memory"))));
        assertEquals(List.of(3), halts);
    }

    @Test
    void anyOtherExceptionIsPrintedAndDoesNotHalt() {
        handler.uncaughtException(new Thread("worker"), new IllegalArgumentException("bad"));
        assertEquals(List.of(), halts);
        assertTrue(printed.toString(StandardCharsets.UTF_8).startsWith("Exception in thread \"worker\" java.lang.IllegalArgumentException: bad"));
    }

    @Test
    void installMakesItTheDefaultHandler() {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        try {
            FatalErrors.install();
            assertTrue(Thread.getDefaultUncaughtExceptionHandler() instanceof FatalErrors);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
