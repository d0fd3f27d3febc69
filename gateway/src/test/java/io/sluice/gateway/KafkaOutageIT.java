package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;

/** When Kafka is gone, no client gets a 2xx for an event that is not stored. Uses a broker of its own to stop it. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class KafkaOutageIT {
    private static final String TRANSACTION = "{\"transaction\": \"GET /\", \"tags\": {\"http.status_code\": 200}}";

    @TempDir
    Path dataDir;

    @Test
    void withKafkaDownEventsGet503WithRetryAfterAndReadinessSaysWhy() throws Exception {
        KafkaBroker broker = KafkaBroker.start(dataDir, Ports.free(), Ports.free());
        Gateway gateway = null;
        try {
            gateway = Gateway.start(GatewayConfig.from(new Settings(Map.of(
                    "SLUICE_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                    "SLUICE_TOPIC_PARTITIONS", "1",
                    "SLUICE_GATEWAY_PORT", "0",
                    "SLUICE_GATEWAY_ADMIN_PORT", "0",
                    "SLUICE_GATEWAY_PUBLISH_TIMEOUT", "1s",
                    "SLUICE_GATEWAY_SHUTDOWN_TIMEOUT", "2s"))));
            TestGateway client = new TestGateway(gateway, null);
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(broker.bootstrapServers(), "sluice.projects")) {
                project = admin.create("outage");
            }
            client.awaitKnown(project);
            assertEquals(200, client.post(project, "transaction", TRANSACTION).statusCode());

            broker.close();

            long start = System.nanoTime();
            HttpResponse<String> response = client.post(project, "transaction", TRANSACTION);
            Duration answeredIn = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(503, response.statusCode(), response.body());
            // Bounded by the gateway's own timeouts, not by the test's patience (30 s): send() never blocks
            // (max.block.ms 0: it refuses at once), and a record it buffered fails at the delivery timeout, the 1 s set. A
            // record left to the default (5 s) fails no sooner than 5 s after this request was sent, so it
            // misses this bound; the 4 s above the 1 s set are slack for a slow machine. (In some runs send()
            // itself refuses this record at once: then the bound says nothing about the delivery timeout.)
            System.out.println("Kafka down: 503 after " + answeredIn.toMillis() + " ms (publish timeout 1 s)");
            Duration defaultTimeout = new Settings(Map.of()).getDuration(GatewayConfig.PUBLISH_TIMEOUT);
            assertTrue(answeredIn.compareTo(defaultTimeout) < 0, "answered in " + answeredIn.toMillis() + " ms");
            assertTrue(response.body().contains("\"unavailable\""), response.body());
            // The record may still be written after the timeout: the answer must not say "not
            // stored", and gives the id to retry with (the client sent none).
            JsonNode body = new ObjectMapper().readTree(response.body());
            assertEquals("the event may or may not have been stored; retry with the same event_id (given here as 'id') "
                    + "to have it counted once", body.path("message").asText(), response.body());
            assertTrue(body.path("id").asText().matches("[0-9a-f]{32}"), response.body());
            HttpResponse<String> withOwnId = client.post(project, "transaction",
                    "{\"event_id\": \"7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a\", \"transaction\": \"GET /\"}");
            assertEquals(503, withOwnId.statusCode(), withOwnId.body());
            assertEquals("7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a", new ObjectMapper().readTree(withOwnId.body()).path("id").asText());
            assertEquals("1", response.headers().firstValue("Retry-After").orElse(""));
            String reasons = "{\"status\":\"not_ready\",\"reasons\":[\"Kafka unreachable\"]}";
            assertEquals(reasons, Await.until(Duration.ofSeconds(10), reasons, () -> client.admin("/readyz").body()));
        } finally {
            if (gateway != null) {
                gateway.close();
            }
            broker.close();
        }
    }
}
