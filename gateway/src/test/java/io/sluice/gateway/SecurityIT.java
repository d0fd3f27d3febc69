package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** Guessing keys is slow and tells nothing; TLS can end at the gateway. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SecurityIT {
    private static final String TRANSACTION = "{\"transaction\": \"GET /\"}";

    @TempDir
    Path dir;

    @Test
    void anAddressThatFailsTooOftenGets429EvenWithTheRightKey(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "1000"))) {
            ProjectAdmin.NewProject project = gateway.newProject("guarded");
            try (TestGateway strict = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "5",
                    "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "1"))) {
                ProjectAdmin.NewProject guess = new ProjectAdmin.NewProject(project.token(), "slk_guess", "x");
                for (int i = 0; i < 5; i++) {
                    assertEquals(401, strict.post(guess, "transaction", TRANSACTION).statusCode());
                }
                HttpResponse<String> limited = strict.post(guess, "transaction", TRANSACTION);
                assertEquals(429, limited.statusCode());
                assertTrue(limited.body().contains("\"too_many_failed_attempts\""), limited.body());
                assertEquals("60", limited.headers().firstValue("Retry-After").orElse(""));
                assertEquals(429, strict.post(project, "transaction", TRANSACTION).statusCode(),
                        "while limited, even the right key gets 429: no oracle");
            }
            assertEquals(200, gateway.post(project, "transaction", TRANSACTION).statusCode(), "another gateway is unaffected");
        }
    }

    @Test
    void aLimitedAddressIsAdmittedAgainOnceItsFailedAuthBudgetRefills(Engines engines) throws Exception {
        io.sluice.kafka.TopicSetup.ensureTopics(io.sluice.config.KafkaSettings.from(new io.sluice.config.Settings(
                Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers(), "SLUICE_TOPIC_PARTITIONS", "4"))));
        ProjectAdmin.NewProject project;
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            project = admin.create("refilled");
        }
        // 12 a minute: one failed authentication back every 5 s, after a burst of 3. The three failures
        // and the refused fourth request need not be quick: they have those 5 s, counted from the first.
        try (TestGateway strict = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "3",
                "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "12"))) {
            ProjectAdmin.NewProject guess = new ProjectAdmin.NewProject(project.token(), "slk_guess", "x");
            long firstFailure = System.nanoTime(); // before the gateway sees the first failure
            for (int i = 0; i < 3; i++) {
                assertEquals(401, strict.post(guess, "transaction", TRANSACTION).statusCode());
            }
            HttpResponse<String> limited = strict.post(project, "transaction", TRANSACTION);
            assertEquals(429, limited.statusCode(), limited.body());
            assertTrue(limited.body().contains("\"too_many_failed_attempts\""), limited.body());
            assertEquals(200, Await.until(Duration.ofSeconds(30), 200, () -> strict.post(project, "transaction", TRANSACTION).statusCode()),
                    "the right key is served again once one failure has refilled");
            // The budget is back to one only 5 s after the first failure, however the three were spread.
            long waitedMillis = (System.nanoTime() - firstFailure) / 1_000_000;
            assertTrue(waitedMillis >= 5_000, "admitted only after the refill of one failure (5 s), not after " + waitedMillis + " ms");
        }
    }

    @Test
    void refusalsOfValidKeysDoNotCountAsGuesses(Engines engines) throws Exception {
        io.sluice.kafka.TopicSetup.ensureTopics(io.sluice.config.KafkaSettings.from(new io.sluice.config.Settings(
                Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers(), "SLUICE_TOPIC_PARTITIONS", "4"))));
        ProjectAdmin.NewProject shop;
        ProjectAdmin.NewProject blog;
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            shop = admin.create("shop-403");
            blog = admin.create("blog-403");
        }
        // Started after the projects exist: a gateway reads the whole registry before it serves.
        try (TestGateway strict = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "3",
                "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "1"))) {
            ProjectAdmin.NewProject wrongProject = new ProjectAdmin.NewProject(shop.token(), blog.key(), "x");
            for (int i = 0; i < 10; i++) {
                assertEquals(403, strict.post(wrongProject, "transaction", TRANSACTION).statusCode(),
                        "a valid key used on the wrong project is a mistake, not a guess");
            }
            assertEquals(200, strict.post(shop, "transaction", TRANSACTION).statusCode());
        }
    }

    @Test
    void theGatewayTerminatesTlsWithAPemCertificateAndKey(Engines engines) throws Exception {
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString()).redirectErrorStream(true).start();
        assertTrue(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0, new String(openssl.getInputStream().readAllBytes()));

        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_TLS_CERTIFICATE", cert.toString(),
                "SLUICE_GATEWAY_TLS_KEY", key.toString()))) {
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
                project = admin.create("tls");
            }
            HttpClient https = HttpClient.newBuilder().sslContext(trusting(cert)).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + gateway.port()
                            + "/api/v1/" + project.token() + "/transaction"))
                    .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(TRANSACTION)).build();
            gateway.awaitKnown(project); // on the registry, not by polling: the first RSA handshake may take seconds
            assertEquals(200, https.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
            HttpRequest plain = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/x/transaction"))
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(TRANSACTION)).build();
            assertThrows(java.io.IOException.class, () -> HttpClient.newHttpClient().send(plain, HttpResponse.BodyHandlers.ofString()),
                    "plain HTTP is not served on a TLS port");
        }
    }

    @Test
    void healthAndMetricsAreNotServedOnThePublicPort(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of())) {
            for (String path : new String[] {"/metrics", "/healthz", "/readyz"}) {
                HttpResponse<String> response = TestGateway.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + gateway.port() + path)).build());
                assertEquals(404, response.statusCode(), path);
            }
            assertEquals(200, gateway.admin("/metrics").statusCode(), "they are on the admin port");
        }
    }

    private static SSLContext trusting(Path certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("gateway", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
