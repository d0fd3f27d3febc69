package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * DSN keys that are real but refused (expired, revoked, another project's) are no guesses: they do not
 * count against the failed authentications of the address sending them (a NAT full of browsers).
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SentryKeyRefusalsIT {
    private static final byte[] GOOD = "{}\n{\"type\":\"event\"}\n{\"message\":\"fine\"}\n".getBytes(StandardCharsets.UTF_8);
    private static final int BURST = 3;

    static TestGateway gateway;
    static Engines engines;

    @BeforeAll
    static void start(Engines started) throws Exception {
        engines = started;
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_AUTH_FAILURE_BURST", Integer.toString(BURST),
                "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "1", "SLUICE_GATEWAY_TRUSTED_PROXIES", "127.0.0.1/32"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    /** From the client {@code from}, as the trusted proxy 127.0.0.1 says. */
    private static HttpResponse<String> post(ProjectAdmin.NewProject path, String publicKey, String from) {
        return TestGateway.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + gateway.port() + "/api/"
                        + path.numericId() + "/envelope/"))
                .header("X-Forwarded-For", from)
                .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + publicKey)
                .POST(HttpRequest.BodyPublishers.ofByteArray(GOOD)).build());
    }

    @Test
    void anExpiredDsnKeyIs401AndLocksNobodyOut() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("rotated");
        String expired = project.dsnKey().publicKey();
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            admin.rotateDsnKey(project.token(), Duration.ZERO);
        }
        Await.until("the expired key refused", Duration.ofSeconds(30), 401, () -> post(project, expired, "192.0.2.1").statusCode());
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = post(project, expired, "192.0.2.1");
            assertEquals(401, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("expired"), refused.body());
        }
        ProjectAdmin.NewProject neighbour = gateway.newProject("neighbour");
        HttpResponse<String> served = post(neighbour, neighbour.dsnKey().publicKey(), "192.0.2.1");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void aRevokedDsnKeyIs401AndLocksNobodyOut() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("revoked");
        String revoked = project.dsnKey().publicKey();
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            admin.rotateDsnKey(project.token(), Duration.ofHours(1));
            admin.revokeDsnKey(project.token(), project.dsnKey().id());
        }
        Await.until("the revoked key refused", Duration.ofSeconds(30), 401, () -> post(project, revoked, "192.0.2.4").statusCode());
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = post(project, revoked, "192.0.2.4");
            assertEquals(401, refused.statusCode(), refused.body());
        }
        ProjectAdmin.NewProject neighbour = gateway.newProject("revoked-neighbour");
        HttpResponse<String> served = post(neighbour, neighbour.dsnKey().publicKey(), "192.0.2.4");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void anotherProjectsDsnKeyIs403AndLocksNobodyOut() {
        ProjectAdmin.NewProject project = gateway.newProject("path");
        ProjectAdmin.NewProject other = gateway.newProject("owner");
        for (int i = 0; i < BURST + 2; i++) {
            HttpResponse<String> refused = post(project, other.dsnKey().publicKey(), "192.0.2.2");
            assertEquals(403, refused.statusCode(), refused.body());
            assertTrue(refused.body().startsWith("{\"error\":\"key_of_another_project\""), refused.body());
        }
        HttpResponse<String> served = post(project, project.dsnKey().publicKey(), "192.0.2.2");
        assertEquals(200, served.statusCode(), served.body());
    }

    @Test
    void aKeyMatchingNothingStillCountsAsAFailedAttempt() {
        ProjectAdmin.NewProject project = gateway.newProject("guessed");
        for (int i = 0; i < BURST; i++) {
            assertEquals(401, post(project, "0123456789abcdef0123456789abcdef", "192.0.2.3").statusCode());
        }
        HttpResponse<String> locked = post(project, project.dsnKey().publicKey(), "192.0.2.3");
        assertEquals(429, locked.statusCode(), locked.body());
    }
}
