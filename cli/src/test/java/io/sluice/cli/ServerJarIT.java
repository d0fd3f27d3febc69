package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code java -jar cli/target/sluice.jar} as the server image runs it (failsafe runs after package). */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServerJarIT {
    private record Run(int exitCode, String out, String err) {
    }

    private static Run sluice(String... argv) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Path.of("target", "sluice.jar").toString()));
        command.addAll(List.of(argv));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Run(process.exitValue(), out, err);
    }

    /** The project's version, from the build file the jar was built by. */
    private static String projectVersion() throws Exception {
        Matcher version = Pattern.compile("<artifactId>sluice-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(version.find());
        return version.group(1);
    }

    @Test
    void versionPrintsTheJarsVersion() throws Exception {
        Run run = sluice("--version");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("sluice " + projectVersion() + "\n", run.out());
    }

    @Test
    void helpListsEveryCommandWithOneLoggingBackendAndNoWarnings() throws Exception {
        Run run = sluice("help");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(Usage.TEXT + "\n", run.out());
        // No "SLF4J(W): multiple providers" or "no providers", no Logback status noise.
        assertEquals("", run.err());
    }

    @Test
    void aWrongLogSettingIsNamedAndExits1() throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Path.of("target", "sluice.jar").toString(), "config");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SLUICE_LOG_FORMAT", "yaml");
        Process process = builder.start();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, process.exitValue());
        assertTrue(err.contains("sluice: SLUICE_LOG_FORMAT is text or json, not yaml\n"), err);
        assertFalse(err.contains("Exception"), err);
    }
}
