package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * The processor deduplicates per source partition, so every copy of an event must land in one
 * partition: whichever gateway took it, and however fast its project was sending at the time.
 */
@ExtendWith(RealEngines.class)
class RetryThroughAnotherGatewayIT {
    private static final String EVENT_ID = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";
    private static final int BURST = 1_500;

    @Test
    @Timeout(120)
    void everyCopyOfAnEventLandsInOnePartitionWhicheverGatewayAndWhateverTheLoad(Engines engines) throws Exception {
        try (TestGateway first = TestGateway.start(engines, Map.of());
             TestGateway second = TestGateway.start(engines, Map.of())) {
            ProjectAdmin.NewProject project = first.newProject("retried");
            second.awaitKnown(project);
            String event = "{\"event_id\": \"" + EVENT_ID + "\", \"transaction\": \"GET /\"}";

            assertEquals(200, second.post(project, "transaction", event).statusCode());
            burst(first, project); // the project now sends fast through the first gateway
            assertEquals(200, first.post(project, "transaction", event).statusCode());
            assertEquals(200, second.post(project, "transaction", event).statusCode());

            List<ConsumerRecord<byte[], byte[]>> copies = KafkaRecords.find(engines, "sluice.transactions", 3,
                    Duration.ofSeconds(30), KafkaRecords.withHeader(EventHeaders.EVENT_ID, EVENT_ID));
            assertEquals(3, copies.size());
            Set<Integer> partitions = copies.stream().map(ConsumerRecord::partition).collect(Collectors.toSet());
            System.out.println("delivery report (the same event through two gateways, between " + BURST + " events): "
                    + copies.size() + " copies published, in partitions " + partitions);
            assertEquals(1, partitions.size(), "partitions of the copies: " + partitions);
            // And a project's events still spread over all partitions.
            List<ConsumerRecord<byte[], byte[]>> all = KafkaRecords.find(engines, "sluice.transactions", BURST + 3,
                    Duration.ofSeconds(30), KafkaRecords.withHeader(EventHeaders.PROJECT, project.token()));
            assertEquals(4, all.stream().map(ConsumerRecord::partition).distinct().count());
        }
    }

    /** Many events of one project at once, 32 requests in flight. */
    private static void burst(TestGateway gateway, ProjectAdmin.NewProject project) {
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(32);
        for (int i = 0; i < BURST; i++) {
            HttpRequest request = gateway.request(project.token(), "transaction")
                    .header("Authorization", "Bearer " + project.key())
                    .POST(HttpRequest.BodyPublishers.ofString("{\"transaction\": \"GET /" + i + "\"}")).build();
            inFlight.acquireUninterruptibly();
            answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .whenComplete((answer, error) -> inFlight.release()));
        }
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            assertEquals(200, answer.join().statusCode());
        }
    }
}
