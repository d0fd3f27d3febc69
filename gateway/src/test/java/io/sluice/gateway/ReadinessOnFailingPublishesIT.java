package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * /readyz sees publishes fail: with its topic deleted, every event gets 503 unavailable, and
 * /readyz turns 503 naming why (before: 200 throughout, Kafka being reachable); once the topic is
 * back, it is ready again. (A topic below min.insync.replicas cannot be made on one broker: Kafka 4
 * caps the effective minimum at the replication factor.)
 */
@ExtendWith(RealEngines.class)
class ReadinessOnFailingPublishesIT {
    private static final String TOPIC = "sluice.transactions.readiness-it"; // of its own: this test deletes it
    private static final int PARTITIONS = 4; // TestGateway's SLUICE_TOPIC_PARTITIONS

    @Test
    @Timeout(120)
    void readyzTurns503WhilePublishesFailAndRecovers(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_TOPIC_TRANSACTIONS", TOPIC,
                "SLUICE_GATEWAY_PUBLISH_TIMEOUT", "1s", "SLUICE_GATEWAY_PUBLISH_FAILURE_WINDOW", "4s"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", engines.kafkaBootstrapServers()))) {
            ProjectAdmin.NewProject project = gateway.newProject("readiness");
            String event = "{\"transaction\": \"GET /\"}";
            assertEquals(200, gateway.post(project, "transaction", event).statusCode());
            assertEquals(200, gateway.admin("/readyz").statusCode());

            admin.deleteTopics(List.of(TOPIC)).all().get(); // every publish now fails
            Await.until("a publish refused", Duration.ofSeconds(30), 503, () -> gateway.post(project, "transaction", event).statusCode());
            // Every request is refused; once the last success is older than the window, /readyz says so.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (gateway.admin("/readyz").statusCode() == 200 && System.nanoTime() < deadline) {
                HttpResponse<String> refused = gateway.post(project, "transaction", event);
                assertEquals(503, refused.statusCode(), refused.body());
                assertTrue(refused.body().startsWith("{\"error\":\"unavailable\""), refused.body());
            }
            HttpResponse<String> unready = gateway.admin("/readyz");
            System.out.println("readiness on failing publishes: " + unready.statusCode() + " " + unready.body());
            assertEquals(503, unready.statusCode(), unready.body());
            assertTrue(unready.body().matches(".*publishing to Kafka fails: the last [0-9]+ publishes failed, none succeeded in the last 4 s;"
                    + " last error: .*"), unready.body());
            assertTrue(gateway.admin("/metrics").body().contains("\nsluice_gateway_publish_failing 1.0\n"));

            Await.until("the topic deleted", Duration.ofSeconds(30), false, () -> topicExists(admin));
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
            // Unready, a gateway may get no traffic: the failures age out of the window, no success needed.
            assertEquals(200, Await.until(Duration.ofSeconds(15), 200, () -> gateway.admin("/readyz").statusCode()));
            assertEquals(200, gateway.post(project, "transaction", event).statusCode());
            assertTrue(gateway.admin("/metrics").body().contains("\nsluice_gateway_publish_failing 0.0\n"));
        }
    }

    private static boolean topicExists(Admin admin) {
        try {
            return admin.listTopics().names().get().contains(TOPIC);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
