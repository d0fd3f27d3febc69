package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;

/**
 * {@code java -jar cli/target/sluice.jar} run by an operator while Kafka cannot be reached: every
 * command that needs Kafka fails after about {@code SLUICE_CLI_KAFKA_TIMEOUT}, with one line on
 * stderr naming the bootstrap servers and exit code 1 (2 is for a wrong call). The bounds below
 * are generous, for a busy machine: they catch a hang (61 s before the timeout existed), they
 * time nothing.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KafkaUnreachableIT {
    /** The default timeout, 15 s, well passed; far below the 61 s it took before. */
    private static final Duration DEFAULT_BOUND = Duration.ofSeconds(45);
    /**
     * SLUICE_CLI_KAFKA_TIMEOUT where the test does not check the default: the shortest it takes, since
     * a run of every command pays it each time.
     */
    private static final String SHORT_TIMEOUT = "1s";
    /** For runs with {@link #SHORT_TIMEOUT}. */
    private static final Duration SHORT_BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err, Duration took) {
    }

    @Test
    void showWithNothingListeningFailsWithinTheDefaultTimeoutNamingTheServers() throws Exception {
        String servers = "127.0.0.1:" + Ports.free();
        Run run = sluice(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", servers), "projects", "show", "tok_missing");
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("sluice: cannot create Sluice's topics: Kafka at " + servers + " did not answer within 15 s. Check that it is "
                + "reachable, and that security.protocol (PLAINTEXT) is what its listener expects", firstSentences(run.err()));
        assertOneLine(run);
        assertTrue(run.took().compareTo(DEFAULT_BOUND) < 0, "took " + run.took());
    }

    @Test
    void everyProjectsActionAndReplayFailTheSameWay() throws Exception {
        String servers = "127.0.0.1:" + Ports.free();
        List<List<String>> commands = List.of(List.of("projects", "create", "--name", "shop"), List.of("projects", "list"),
                List.of("projects", "show", "tok"), List.of("projects", "rotate-key", "tok"),
                List.of("projects", "revoke-key", "tok", "key"), List.of("projects", "rotate-dsn-key", "tok"),
                List.of("projects", "revoke-dsn-key", "tok", "key"),
                List.of("projects", "set-dsn-origins", "tok", "key", "--origins", "https://a.example"),
                List.of("projects", "disable", "tok"), List.of("projects", "enable", "tok"),
                List.of("projects", "set-quota", "tok", "--rate", "5"), List.of("projects", "set-scrubbing", "tok", "--off"),
                List.of("replay", "--from", "2026-11-22T08:00:00Z", "--dry-run"));
        for (List<String> command : commands) {
            Run run = sluice(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", servers, "SLUICE_CLI_KAFKA_TIMEOUT", SHORT_TIMEOUT),
                    command.toArray(String[]::new));
            assertEquals(1, run.exitCode(), command + ": " + run.err());
            assertTrue(run.err().contains(": Kafka at " + servers + " did not answer within 1 s. "), command + ": " + run.err());
            assertOneLine(run);
            assertTrue(run.took().compareTo(SHORT_BOUND) < 0, command + " took " + run.took());
        }
    }

    @Test
    void theMessageNamesTheServersAndTheUserButNeverThePassword() throws Exception {
        String servers = "127.0.0.1:" + Ports.free();
        Run run = sluice(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", servers, "SLUICE_CLI_KAFKA_TIMEOUT", SHORT_TIMEOUT,
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512",
                "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"sluice\" password=\"hunter2\";"),
                "projects", "list");
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("sluice: cannot create Sluice's topics: Kafka at " + servers + " did not answer within 1 s. Check that it is "
                + "reachable, and that security.protocol (SASL_PLAINTEXT) is what its listener expects", firstSentences(run.err()));
        assertFalse(run.err().contains("hunter2"), run.err());
        assertOneLine(run);
    }

    /** A host that takes the connection and never answers (a hung broker, a proxy with nothing behind it). */
    @Test
    void aListenerThatNeverAnswersFailsTheSameWay() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) { // never accepts: the backlog connects
            String servers = "127.0.0.1:" + silent.getLocalPort();
            Run run = sluice(Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", servers, "SLUICE_CLI_KAFKA_TIMEOUT", SHORT_TIMEOUT),
                    "projects", "show", "tok");
            assertEquals(1, run.exitCode(), run.err());
            assertTrue(run.err().startsWith("sluice: cannot create Sluice's topics: Kafka at " + servers + " did not answer within 1 s. "),
                    run.err());
            assertOneLine(run);
            assertTrue(run.took().compareTo(SHORT_BOUND) < 0, "took " + run.took());
        }
    }

    @Test
    void showFailsWithinTheDefaultTimeoutOnceTheBrokerHoldingTheProjectIsStopped() throws Exception {
        KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), Ports.free(), Ports.free());
        String servers = broker.bootstrapServers();
        Map<String, String> env = Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", servers);
        String token;
        try {
            Run created = sluice(env, "projects", "create", "--name", "outage", "--json");
            assertEquals(0, created.exitCode(), created.err());
            token = new ObjectMapper().readTree(created.out()).path("token").asText();
            Run shown = sluice(env, "projects", "show", token);
            assertEquals(0, shown.exitCode(), shown.err());
            assertTrue(shown.out().startsWith("outage (" + token + ")\n"), shown.out());
        } finally {
            broker.close();
        }
        Run run = sluice(env, "projects", "show", token);
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("sluice: cannot create Sluice's topics: Kafka at " + servers + " did not answer within 15 s. "),
                run.err());
        assertOneLine(run);
        assertTrue(run.took().compareTo(DEFAULT_BOUND) < 0, "took " + run.took());
    }

    /** The jar as the server image runs it, with these variables over a clean environment's SLUICE_*; waits at most 3 min. */
    private Run sluice(Map<String, String> env, String... argv) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Path.of("target", "sluice.jar").toString()));
        command.addAll(List.of(argv));
        File out = Files.createTempFile(dir, "out", ".txt").toFile();
        File err = Files.createTempFile(dir, "err", ".txt").toFile();
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out).redirectError(err);
        builder.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
        builder.environment().putAll(env);
        long start = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close();
        boolean exited = process.waitFor(3, TimeUnit.MINUTES);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        if (!exited) {
            process.destroyForcibly();
        }
        assertTrue(exited, String.join(" ", argv) + " still running after " + took);
        System.out.printf("%s: exit %d after %.1f s%n", String.join(" ", argv), process.exitValue(), took.toMillis() / 1000.0);
        return new Run(process.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8), took);
    }

    /** One line on stderr: the message, no stack trace, no client log. */
    private static void assertOneLine(Run run) {
        assertTrue(run.err().endsWith("\n") && run.err().indexOf('\n') == run.err().length() - 1, run.err());
    }

    /** The message without the client's exception after it, which names Kafka's internals. */
    private static String firstSentences(String err) {
        int cause = err.lastIndexOf(" (");
        return cause < 0 ? err.strip() : err.substring(0, cause);
    }
}
