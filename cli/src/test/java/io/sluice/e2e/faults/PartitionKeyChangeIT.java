package io.sluice.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.publish.PartitionChooser;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * What the README says of a changed SLUICE_PARTITION_KEY, through the whole pipeline: a retry that
 * the new key puts in another partition than its first copy is counted twice (the processor
 * deduplicates within a partition's task); one the new key leaves in the same partition, once.
 */
@ExtendWith(RealEngines.class)
class PartitionKeyChangeIT {
    private static final String OLD_KEY = "the partition key before the change";
    private static final String NEW_KEY = "the partition key after the change!";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    @Timeout(300)
    void aRetryTheNewKeyMovesToAnotherPartitionIsCountedTwice(Engines engines, @TempDir Path stateDir) throws Exception {
        Map<String, String> values = TestSettings.isolated("keychange", engines, stateDir).toMap();
        TopicSetup.ensureTopics(KafkaSettings.from(new Settings(values)));
        int partitions = Integer.parseInt(values.get("SLUICE_TOPIC_PARTITIONS"));
        ProjectAdmin.NewProject project;
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), values.get("SLUICE_TOPIC_PROJECTS"))) {
            project = admin.create("rotating");
        }
        Map<String, String> before = new HashMap<>(values);
        before.put("SLUICE_PARTITION_KEY", OLD_KEY);
        Map<String, String> after = new HashMap<>(values);
        after.put("SLUICE_PARTITION_KEY", NEW_KEY);
        String moved = null;
        String stays = null;
        for (long i = 0; moved == null || stays == null; i++) {
            String id = String.format("%032x", 0xc3c3_0000L + i);
            boolean same = new PartitionChooser(OLD_KEY).partition(project.token(), id, partitions)
                    == new PartitionChooser(NEW_KEY).partition(project.token(), id, partitions);
            if (same && stays == null) {
                stays = id;
            } else if (!same && moved == null) {
                moved = id;
            }
        }
        try (Gateway oldGateway = Gateway.start(GatewayConfig.from(new Settings(before)));
             Gateway newGateway = Gateway.start(GatewayConfig.from(new Settings(after)));
             ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)))) {
            for (String id : new String[] {moved, stays}) {
                assertEquals(200, post(oldGateway, project, id), "first copy of " + id);
                assertEquals(200, post(newGateway, project, id), "the retry of " + id + " after the key changed");
            }
            String counted = "SELECT sum(requests) FROM " + values.get("SLUICE_CLICKHOUSE_DATABASE") + ".traffic_1m FINAL WHERE project = '"
                    + project.token() + "'";
            assertEquals("3", Await.until(Duration.ofSeconds(120), "3", () -> ClickHouseQuery.run(engines, counted).strip()));
            // And it stays 3: the copy the new key left in its partition was not counted again.
            assertEquals("3", Await.waitThenLook(Duration.ofSeconds(5), "4", () -> ClickHouseQuery.run(engines, counted).strip()));
            System.out.println("partition key change: 2 events, each sent twice (before and after the change): counted 3 times");
        }
    }

    private static int post(Gateway gateway, ProjectAdmin.NewProject project, String id) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/" + project.token()
                        + "/transaction")).header("Content-Type", "application/json").header("Authorization", "Bearer " + project.key())
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("{\"event_id\": \"" + id + "\", \"transaction\": \"GET /\"}")).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
