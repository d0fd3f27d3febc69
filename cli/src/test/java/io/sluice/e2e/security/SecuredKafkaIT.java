package io.sluice.e2e.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.cli.CliRunner;
import io.sluice.config.Settings;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * Sluice against a Kafka that asks for a SASL login (SASL_PLAINTEXT, SCRAM-SHA-512), configured
 * only through {@code SLUICE_KAFKA_PROPERTY_*}: with the right credentials an event goes from the
 * gateway to ClickHouse and the CLI manages projects; with a wrong password each of gateway,
 * processor and {@code projects create} stops at startup, at once, saying so.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SecuredKafkaIT {
    private static final KafkaBroker.ScramUser USER = new KafkaBroker.ScramUser("sluice", "scram-secret-42");
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    /** A refused login is known at the first answer: well inside Kafka's own timeouts. */
    private static final Duration REFUSED_WITHIN = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Engines engines;
    static KafkaBroker securedKafka;

    @BeforeAll
    static void startSecuredKafka(Engines realEngines) {
        engines = realEngines;
        securedKafka = KafkaBroker.startWithScram(dir.resolve("kafka"), Ports.free(), Ports.free(), USER);
    }

    @AfterAll
    static void stopSecuredKafka() {
        if (securedKafka != null) {
            securedKafka.close();
        }
    }

    @Test
    void anEventFlowsToClickHouseThroughAScramKafka() throws Exception {
        Settings settings = settings("secured_flow", USER.jaasConfig());
        JsonNode project = created(CliRunner.run(settings, "projects", "create", "--name", "secured", "--json"));
        try (Gateway gateway = Gateway.start(GatewayConfig.from(settings));
             ProcessorService processor = ProcessorService.start(ProcessorConfig.from(settings))) {
            String body = "{\"event_id\": \"0d7c3a1e5b8f4e2a9c6d1f0e3b2a4c5d\", \"transaction\": \"GET /secured\","
                    + " \"tags\": {\"http.status_code\": \"200\"}}";
            // 401 until the gateway's registry has the project the CLI just created.
            assertEquals(200, Await.until(ARRIVAL, 200, () -> post(gateway, project, body)));
            // The gateway's own check of Kafka logs in too.
            assertEquals(200, Await.until(Duration.ofSeconds(15), 200, () -> readiness(gateway)));
            assertEquals("0d7c3a1e5b8f4e2a9c6d1f0e3b2a4c5d\tGET /secured", Await.until(ARRIVAL,
                    "0d7c3a1e5b8f4e2a9c6d1f0e3b2a4c5d\tGET /secured", () -> ClickHouseQuery.run(engines,
                            "SELECT event_id, transaction FROM sluice_secured_flow.transactions FINAL WHERE project = '"
                                    + project.get("token").asText() + "'")));
        }
    }

    @Test
    void projectsCreateWorksWithTheRightCredentials() throws Exception {
        CliRunner.Result result = CliRunner.run(settings("secured_cli", USER.jaasConfig()), "projects", "create", "--name", "cli");
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().startsWith("Created project cli\n"), result.out());
    }

    @Test
    void theGatewayStopsAtStartupNamingTheRefusedLogin() {
        GatewayConfig config = GatewayConfig.from(settings("secured_gw_refused", USER.jaasConfig("wrong-password")));
        long start = System.nanoTime();
        var error = assertThrows(IllegalStateException.class, () -> Gateway.start(config).close());
        assertRefusedLogin(error.getMessage(), start);
    }

    @Test
    void theProcessorStopsAtStartupNamingTheRefusedLogin() {
        ProcessorConfig config = ProcessorConfig.from(settings("secured_proc_refused", USER.jaasConfig("wrong-password")));
        long start = System.nanoTime();
        var error = assertThrows(IllegalStateException.class, () -> ProcessorService.start(config).close());
        assertRefusedLogin(error.getMessage(), start);
    }

    @Test
    void projectsCreateStopsNamingTheRefusedLoginWithoutAStackTrace() {
        long start = System.nanoTime();
        CliRunner.Result result = CliRunner.run(settings("secured_cli_refused", USER.jaasConfig("wrong-password")),
                "projects", "create", "--name", "refused");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        assertRefusedLogin(result.err(), start);
        assertTrue(result.err().startsWith("sluice: cannot create Sluice's topics: authentication failed"), result.err());
        assertFalse(result.err().contains("\tat "), result.err());
        assertFalse(result.out().contains("Created project"), result.out());
    }

    @Test
    void aMechanismTheBrokerDoesNotOfferIsNamed() {
        Map<String, String> values = TestSettings.isolated("secured_mechanism", engines, dir.resolve("mech")).toMap();
        values.putAll(secured(USER.jaasConfig()));
        values.put("SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-256");
        CliRunner.Result result = CliRunner.run(new Settings(values), "projects", "create", "--name", "refused");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        assertTrue(result.err().contains("authentication failed at Kafka at " + securedKafka.bootstrapServers()
                + " for user 'sluice' with SASL mechanism SCRAM-SHA-256"), result.err());
        assertTrue(result.err().contains("SCRAM-SHA-256' not enabled in the server, enabled mechanisms are [SCRAM-SHA-512]"),
                result.err());
    }

    private static void assertRefusedLogin(String message, long startNanos) {
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        assertTrue(took.compareTo(REFUSED_WITHIN) < 0, "took " + took);
        assertTrue(message.contains("authentication failed at Kafka at " + securedKafka.bootstrapServers()
                + " for user 'sluice' with SASL mechanism SCRAM-SHA-512 over SASL_PLAINTEXT"), message);
        assertTrue(message.contains("invalid credentials"), message);
        assertFalse(message.contains("wrong-password") || message.contains(USER.password()), message);
    }

    /** One test's isolated pipeline, with Kafka reached only through SLUICE_KAFKA_PROPERTY_* settings. */
    private static Settings settings(String name, String jaasConfig) {
        Map<String, String> values = TestSettings.isolated(name, engines, dir.resolve(name)).toMap();
        values.putAll(secured(jaasConfig));
        return new Settings(values);
    }

    private static Map<String, String> secured(String jaasConfig) {
        return Map.of("SLUICE_KAFKA_BOOTSTRAP_SERVERS", securedKafka.bootstrapServers(),
                "SLUICE_KAFKA_PROPERTY_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "SLUICE_KAFKA_PROPERTY_SASL_MECHANISM", "SCRAM-SHA-512",
                "SLUICE_KAFKA_PROPERTY_SASL_JAAS_CONFIG", jaasConfig);
    }

    private static JsonNode created(CliRunner.Result result) throws Exception {
        assertEquals(0, result.exitCode(), result.err());
        return JSON.readTree(result.out());
    }

    private static int readiness(Gateway gateway) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + "/readyz")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Posts one transaction for a project that `projects create --json` printed; -1 when nothing answered. */
    static int post(Gateway gateway, JsonNode project, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port()
                        + "/api/v1/" + project.get("token").asText() + "/transaction"))
                .header("Authorization", "Bearer " + project.get("key").asText())
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }
}
