package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server image runs {@code cli/target/sluice.jar} with {@code cli/target/lib/} (what
 * deploy/Dockerfile copies; failsafe runs after package): no embedded broker, no Scala, no bench.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ServerImageClasspathIT {
    private static final Path TARGET = Path.of("target");
    /** The embedded engines, the bench, test code, and the broker's Scala runtime and log4j backend. */
    private static final Pattern FORBIDDEN = Pattern.compile(
            "(sluice-engines|sluice-bench|sluice-testkit|sluice-devstack|scala-.*|log4j-core|junit-.*|testcontainers.*)-\\d.*\\.jar");

    /** Of Kafka, only the clients and Streams: every other kafka jar (kafka_2.13, kafka-server, -metadata, -raft…) is the broker. */
    static boolean forbidden(String jar) {
        return FORBIDDEN.matcher(jar).matches()
                || jar.startsWith("kafka") && !jar.startsWith("kafka-clients-") && !jar.startsWith("kafka-streams-");
    }

    @Test
    void theImagesLibHoldsNoBrokerScalaEnginesBenchOrTestJars() throws Exception {
        List<String> jars;
        try (Stream<Path> lib = Files.list(TARGET.resolve("lib"))) {
            jars = lib.map(path -> path.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of(), jars.stream().filter(ServerImageClasspathIT::forbidden).toList());
        // Not vacuous: the lib is the server's runtime.
        for (String needed : List.of("sluice-gateway-", "sluice-processor-", "sluice-registry-", "sluice-sink-", "sluice-common-",
                "kafka-clients-", "kafka-streams-")) {
            assertTrue(jars.stream().anyMatch(jar -> jar.startsWith(needed)), needed + " in " + jars);
        }
    }

    @Test
    void theImageLogsThroughLogbackAndParsesWithPicocli() throws Exception {
        List<String> jars;
        try (Stream<Path> lib = Files.list(TARGET.resolve("lib"))) {
            jars = lib.map(path -> path.getFileName().toString()).sorted().toList();
        }
        for (String needed : List.of("logback-classic-", "logback-core-", "slf4j-api-", "picocli-")) {
            assertTrue(jars.stream().anyMatch(jar -> jar.startsWith(needed)), needed + " in " + jars);
        }
        // One SLF4J backend: slf4j-simple next to logback would make the choice a matter of class-path order.
        assertEquals(List.of(), jars.stream().filter(jar -> jar.startsWith("slf4j-simple-")).toList());
    }

    @Test
    void theJarsClassPathNamesOnlyWhatLibHolds() throws Exception {
        String classPath;
        try (JarFile jar = new JarFile(TARGET.resolve("sluice.jar").toFile())) {
            classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");
            assertEquals("io.sluice.cli.SluiceCli", jar.getManifest().getMainAttributes().getValue("Main-Class"));
        }
        List<String> entries = Arrays.asList(classPath.trim().split("\\s+"));
        for (String entry : entries) {
            assertTrue(Files.isRegularFile(TARGET.resolve(entry)), entry + " is not in target/lib");
            assertTrue(!forbidden(entry.substring("lib/".length())), entry);
        }
    }
}
