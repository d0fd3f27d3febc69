package io.sluice.fatal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** Real processes, without {@code -XX:+ExitOnOutOfMemoryError}, that run out of heap in a thread. */
class FatalErrorsProcessTest {
    @Test
    void aProcessOutOfHeapInAThreadExitsWithCode3() throws Exception {
        Process process = start("thread");
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the process still ran 20 s after it ran out of memory");
        assertEquals(FatalErrors.EXIT_CODE, process.exitValue());
        assertTrue(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .contains("fatal java.lang.OutOfMemoryError: Java heap space in thread allocating"));
    }

    @Test
    void aProcessOutOfHeapInAScheduledTaskExitsWithCode3() throws Exception {
        Process process = start("scheduler");
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the process still ran 20 s after it ran out of memory");
        assertEquals(FatalErrors.EXIT_CODE, process.exitValue());
    }

    @Test
    void withoutTheHandlerTheSameProcessRunsOn() throws Exception {
        Process process = start("without-handler");
        try {
            assertFalse(process.waitFor(5, TimeUnit.SECONDS), () -> "the process ended by itself (exit code " + process.exitValue() + ")");
        } finally {
            process.destroyForcibly();
        }
    }

    private static Process start(String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx32m", "-cp", System.getProperty("java.class.path"), RunsOutOfMemory.class.getName(), mode)
                .redirectErrorStream(true).start();
    }
}
