package io.sluice.e2e.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
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
 * Sluice against a Kafka over TLS with a SCRAM login (SASL_SSL), configured only through a
 * properties file ({@code SLUICE_KAFKA_PROPERTIES_FILE}): an event reaches ClickHouse; a client
 * that does not trust the broker's certificate stops at startup saying so.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SecuredKafkaTlsIT {
    private static final KafkaBroker.ScramUser USER = new KafkaBroker.ScramUser("sluice", "tls-scram-secret");
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Engines engines;
    static KafkaBroker securedKafka;
    static Path certificate;

    @BeforeAll
    static void startKafkaOverTls(Engines realEngines) throws Exception {
        engines = realEngines;
        certificate = dir.resolve("kafka-cert.pem");
        Path key = dir.resolve("kafka-key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key.toString(), "-out", certificate.toString()).redirectErrorStream(true).start();
        String said = new String(openssl.getInputStream().readAllBytes());
        assertTrue(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0, said);
        Path keyAndCertificate = dir.resolve("kafka-key-and-cert.pem");
        Files.writeString(keyAndCertificate, Files.readString(key) + Files.readString(certificate));
        securedKafka = KafkaBroker.startWithScramOverTls(dir.resolve("kafka"), Ports.free(), Ports.free(), USER,
                new KafkaBroker.Tls(keyAndCertificate, certificate));
    }

    @AfterAll
    static void stopKafka() {
        if (securedKafka != null) {
            securedKafka.close();
        }
    }

    @Test
    void anEventFlowsToClickHouseOverSaslSsl() throws Exception {
        Settings settings = settings("tls_flow", "ssl.truststore.type=PEM\nssl.truststore.location=" + certificate + "\n");
        CliRunner.Result created = CliRunner.run(settings, "projects", "create", "--name", "tls", "--json");
        assertEquals(0, created.exitCode(), created.err());
        JsonNode project = JSON.readTree(created.out());
        try (Gateway gateway = Gateway.start(GatewayConfig.from(settings));
             ProcessorService processor = ProcessorService.start(ProcessorConfig.from(settings))) {
            String body = "{\"event_id\": \"7a1b2c3d4e5f40718293a4b5c6d7e8f9\", \"transaction\": \"GET /tls\"}";
            assertEquals(200, Await.until(ARRIVAL, 200, () -> SecuredKafkaIT.post(gateway, project, body)));
            assertEquals("7a1b2c3d4e5f40718293a4b5c6d7e8f9", Await.until(ARRIVAL, "7a1b2c3d4e5f40718293a4b5c6d7e8f9",
                    () -> ClickHouseQuery.run(engines, "SELECT event_id FROM sluice_tls_flow.transactions FINAL WHERE project = '"
                            + project.get("token").asText() + "'")));
        }
    }

    @Test
    void aClientThatDoesNotTrustTheBrokerStopsNamingTheHandshake() throws Exception {
        CliRunner.Result result = CliRunner.run(settings("tls_untrusted", ""), "projects", "create", "--name", "refused");
        assertEquals(1, result.exitCode(), result.out() + result.err());
        assertTrue(result.err().startsWith("sluice: cannot create Sluice's topics: the TLS handshake with Kafka at "
                + securedKafka.bootstrapServers() + " failed"), result.err());
        assertFalse(result.err().contains("\tat "), result.err());
    }

    /** Kafka reached through a properties file only: the SCRAM login, over TLS, plus {@code extra}. */
    private static Settings settings(String name, String extra) throws Exception {
        Path file = dir.resolve(name + ".properties");
        Files.writeString(file, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                + "sasl.jaas.config=" + USER.jaasConfig().replace("\\", "\\\\") + "\n" + extra);
        Map<String, String> values = TestSettings.isolated(name, engines, dir.resolve(name)).toMap();
        values.put("SLUICE_KAFKA_BOOTSTRAP_SERVERS", securedKafka.bootstrapServers());
        values.put("SLUICE_KAFKA_PROPERTIES_FILE", file.toString());
        return new Settings(values);
    }
}
