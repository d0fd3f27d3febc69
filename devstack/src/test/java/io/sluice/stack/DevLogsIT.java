package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.testkit.Await;

/** {@code ./sluice dev} in its own JVM: the terminal shows only progress, the log file everything from INFO up. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DevLogsIT {
    /** A log line as Logback's text pattern writes it: time [thread] LEVEL logger - message. */
    private static final Pattern LOG_LINE = Pattern.compile("\\S+ \\[[^]]*] (TRACE|DEBUG|INFO|WARN|ERROR) \\S+ - .*");

    @TempDir
    Path home;
    @TempDir
    Path scratch;

    @Test
    void devLogsIntoSluiceLogAndTheTerminalShowsOnlyProgress() throws Exception {
        Path terminal = scratch.resolve("terminal.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                DeveloperCli.class.getName(), "dev");
        builder.environment().putAll(StackOnFreePorts.variables(home));
        builder.redirectErrorStream(true).redirectOutput(terminal.toFile());
        Process dev = builder.start();
        try {
            Await.until(Duration.ofMinutes(5), true, () -> read(terminal).contains("Sluice is running.") || !dev.isAlive());
            assertTrue(dev.isAlive(), read(terminal));
        } finally {
            dev.destroy(); // Ctrl-C's path: the shutdown hook stops the stack
            dev.waitFor(60, TimeUnit.SECONDS);
        }

        String log = read(home.resolve("logs/sluice.log"));
        assertTrue(log.lines().anyMatch(line -> LOG_LINE.matcher(line).matches() && line.contains(" INFO io.sluice.gateway.")
                && line.contains(" - gateway listening on ")), log);
        List<String> logLinesInTerminal = read(terminal).lines().filter(line -> LOG_LINE.matcher(line).matches()).toList();
        assertEquals(List.of(), logLinesInTerminal);
        assertTrue(!read(terminal).contains("SLF4J"), "one logging backend, no SLF4J warning: " + read(terminal));
        assertTrue(read(terminal).contains("✓ stopped; data kept in "), read(terminal));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
