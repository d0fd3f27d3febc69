package io.sluice.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaStartupFailure;

/**
 * {@link ProjectAdmin}'s own waits when Kafka goes away after the command line's topic check
 * passed: reading the registry, writing a project and closing each end after its timeout, with
 * a message naming the servers. Real clients against a port where nothing listens; the bound is
 * generous (a hang took 30 s and more before), it times nothing.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ProjectAdminUnreachableIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration BOUND = Duration.ofSeconds(15);

    @Test
    void readingTheRegistryFailsAfterTheTimeoutNamingTheServers() throws Exception {
        String servers = nothingListening();
        long start = System.nanoTime();
        KafkaStartupFailure failure;
        try (ProjectAdmin admin = new ProjectAdmin(KafkaSettings.at(servers), TIMEOUT)) {
            failure = assertThrows(KafkaStartupFailure.class, () -> admin.get("tok"));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertEquals("cannot read the project registry sluice.projects: Kafka at " + servers + " did not answer within 2 s. "
                + "Check that it is reachable, and that security.protocol (PLAINTEXT) is what its listener expects",
                failure.getMessage());
        assertTrue(took.compareTo(BOUND) < 0, "took " + took);
    }

    @Test
    void writingAProjectFailsAfterTheTimeoutNamingTheServers() throws Exception {
        String servers = nothingListening();
        long start = System.nanoTime();
        KafkaStartupFailure failure;
        try (ProjectAdmin admin = new ProjectAdmin(KafkaSettings.at(servers), TIMEOUT)) {
            failure = assertThrows(KafkaStartupFailure.class, () -> admin.create("shop"));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(failure.getMessage().matches("cannot write project \\S+ to sluice\\.projects: Kafka at " + servers.replace(".", "\\.")
                + " did not answer within 2 s\\. .*"), failure.getMessage());
        assertTrue(took.compareTo(BOUND) < 0, "took " + took);
    }

    /** A loopback address whose port was free a moment ago. */
    private static String nothingListening() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
