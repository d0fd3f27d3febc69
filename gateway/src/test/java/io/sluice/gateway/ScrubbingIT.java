package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * What the gateway's scrubber removes, through the real gateway and Kafka: a parameter name a
 * server reads as {@code password} only once it is percent-decoded, and the metric that counts
 * removals by rule.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ScrubbingIT {
    private static final String EVENT_ID = "5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c";
    private static final String TRANSACTION = "{\"event_id\":\"" + EVENT_ID + "\",\"transaction\":\"GET /login\","
            + "\"request\":{\"url\":\"https://shop.example/login?pass%77ord=hunter2&page=2\","
            + "\"headers\":{\"Authorization\":\"Bearer abc\",\"Accept\":\"*/*\"}},"
            + "\"extra\":{\"card\":\"4111 1111 1111 1111\"}}";

    static Engines engines;
    static TestGateway gateway;
    static ProjectAdmin.NewProject project;
    static HttpResponse<String> accepted;

    @BeforeAll
    static void sendOneTransactionWithThreeSecrets(Engines started) throws Exception {
        engines = started;
        gateway = TestGateway.start(engines, Map.of());
        project = gateway.newProject("scrubbing");
        accepted = gateway.post(project, "transaction", TRANSACTION);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aPercentEncodedPasswordParameterIsScrubbedBeforeKafka() {
        assertEquals(200, accepted.statusCode(), accepted.body());
        List<ConsumerRecord<byte[], byte[]>> found = KafkaRecords.find(engines, "sluice.transactions", 1, Duration.ofSeconds(30),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, EVENT_ID));
        String published = new String(found.get(0).value(), StandardCharsets.UTF_8);
        assertFalse(published.contains("hunter2"), published);
        assertTrue(published.contains("login?pass%77ord=[Filtered]&page=2"), published);
    }

    @Test
    void theMetricCountsEachRemovalUnderItsRule() {
        assertEquals(200, accepted.statusCode(), accepted.body());
        String metrics = gateway.admin("/metrics").body();
        assertTrue(metrics.contains("\nsluice_gateway_scrubbed_values_total{rule=\"@password:filter\"} 2.0\n"), metrics);
        assertTrue(metrics.contains("\nsluice_gateway_scrubbed_values_total{rule=\"@creditcard:filter\"} 1.0\n"), metrics);
    }
}
