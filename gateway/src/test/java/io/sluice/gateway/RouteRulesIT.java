package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

import io.sluice.events.ErrorFields;
import io.sluice.events.EventHeaders;
import io.sluice.events.TransactionFields;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * A project's route rules, set in the registry, decide the route the real gateway reads into the
 * published record's fields header, for the v1 endpoints and Sentry envelopes; another project's
 * events keep the built-in normalization.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RouteRulesIT {
    static TestGateway gateway;
    static Engines engines;
    static ProjectAdmin.NewProject shops;
    static ProjectAdmin.NewProject other;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        gateway = TestGateway.start(engines, Map.of());
        shops = gateway.newProject("route-rules-shops");
        other = gateway.newProject("route-rules-other");
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            admin.addRouteRule(shops.token(), "/shops/*/orders/*");
            admin.addRouteRule(shops.token(), "/shops/{shop}/**");
        }
        Await.until("the gateway has the rules", Duration.ofSeconds(30), List.of("/shops/*/orders/*", "/shops/{shop}/**"),
                () -> gateway.gateway.registry().find(shops.token()).routeRules().patterns());
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void aTransactionMatchingARuleIsPublishedWithTheRuleAsItsRoute() {
        assertEquals("GET /shops/*/orders/*", transactionRoute(shops, "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
                "\"transaction\": \"GET /shops/acme/orders/A-17\""));
        assertEquals("POST /shops/{shop}/**", transactionRoute(shops, "a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2",
                "\"transaction\": \"checkout\", \"request\": {\"method\": \"POST\", \"url\": \"https://h/shops/acme/cart/items/3?x=1\"}"));
    }

    @Test
    void aTransactionNoRuleMatchesIsNormalized() {
        assertEquals("GET /users/{id}/orders/{uuid}", transactionRoute(shops, "a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3",
                "\"transaction\": \"GET /users/42/orders/0f8fad5b-d9cb-469f-a165-70867728950e\""));
    }

    @Test
    void anotherProjectsEventsAreNotTouchedByTheRules() {
        assertEquals("GET /shops/acme/orders/{id}", transactionRoute(other, "a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4",
                "\"transaction\": \"GET /shops/acme/orders/17\""));
    }

    @Test
    void anErrorReportsRouteFollowsTheRulesToo() {
        HttpResponse<String> response = gateway.post(shops, "project", "{\"event_id\": \"a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5\","
                + " \"message\": \"boom\", \"request\": {\"method\": \"DELETE\", \"url\": \"https://h/shops/acme/orders/17\"}}");
        assertEquals(200, response.statusCode(), response.body());
        ConsumerRecord<byte[], byte[]> record = published("sluice.errors", "a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5");
        assertEquals("DELETE /shops/*/orders/*", ErrorFields.fromHeader(record.headers()).route());
    }

    @Test
    void aSentryEnvelopesTransactionFollowsTheRules() {
        String item = "{\"type\":\"transaction\",\"event_id\":\"a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6\",\"transaction\":\"/shops/acme/orders/9\","
                + "\"transaction_info\":{\"source\":\"url\"},\"contexts\":{\"trace\":{\"op\":\"pageload\"}}}";
        byte[] body = ("{\"event_id\":\"a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6\"}\n{\"type\":\"transaction\"}\n" + item + "\n")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = SentryEndpointsIT.post(SentryEndpointsIT.envelope(gateway, shops, "")
                .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(shops)), body);
        assertEquals(200, response.statusCode(), response.body());
        TransactionFields fields = TransactionFields.fromHeader(published("sluice.transactions", "a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6").headers());
        assertEquals("/shops/*/orders/*", fields.route());
        assertEquals("pageload", fields.op());
    }

    private static String transactionRoute(ProjectAdmin.NewProject project, String eventId, String fields) {
        // The fields header takes no more bytes than the JSON: a body of a few fields would go without it.
        HttpResponse<String> response = gateway.post(project, "transaction", "{\"event_id\": \"" + eventId + "\", " + fields
                + ", \"extra\": {\"padding\": \"" + "x".repeat(300) + "\"}}");
        assertEquals(200, response.statusCode(), response.body());
        return TransactionFields.fromHeader(published("sluice.transactions", eventId).headers()).route();
    }

    private static ConsumerRecord<byte[], byte[]> published(String topic, String eventId) {
        List<ConsumerRecord<byte[], byte[]>> records = KafkaRecords.find(engines, topic, 1, Duration.ofSeconds(15),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, eventId));
        assertEquals(1, records.size(), eventId + " on " + topic);
        return records.get(0);
    }
}
