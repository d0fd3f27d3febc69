package io.sluice.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Settings;
import io.sluice.testkit.Await;

/** {@code ./sluice dev} as a user runs it: start, create a project, send, see it; restart keeps it. */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class LocalStackIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path home;

    @Test
    void aTransactionSentToTheLocalStackIsCountedAndSurvivesARestart() throws Exception {
        StackOnFreePorts ports = StackOnFreePorts.in(home);
        Settings settings = ports.settings();
        StackConfig config = ports.config();

        String clickHouse;
        try (LocalStack stack = ports.start()) {
            clickHouse = stack.clickHouseUrl();
            DeveloperCliRunner.Result created = DeveloperCliRunner.run(settings, "projects", "create", "--name", "demo", "--json",
                    "--bootstrap-server", stack.kafkaBootstrapServers());
            assertEquals(0, created.exitCode(), created.err());
            JsonNode project = new ObjectMapper().readTree(created.out());
            assertEquals("demo", project.get("name").asText());

            HttpRequest send = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + stack.gatewayPort() + "/api/v1/" + project.get("token").asText() + "/transaction"))
                    .header("Authorization", "Bearer " + project.get("key").asText())
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"transaction\": \"GET /users/42\", \"tags\": {\"http.status_code\": 200}}"))
                    .build();
            // The gateway follows the registry topic: the new key is in force within a poll (waited for
            // generously: a busy machine may stall the follower; ProjectsIT bounds how long it takes).
            assertEquals(200, Await.until(Duration.ofSeconds(30), 200, () -> status(send)));

            DemoProject demo = DemoProject.ensure(config.home(), stack.kafkaBootstrapServers(), "sluice.projects");
            assertEquals(demo, DemoProject.ensure(config.home(), stack.kafkaBootstrapServers(), "sluice.projects"),
                    "the demo project is created once");
            String url = clickHouse;
            Supplier<String> requests = () -> query(url, "SELECT sum(requests) FROM sluice.traffic_1m FINAL");
            // The first event on a freshly started stack: Streams and the ClickHouse sink start their work with it.
            assertEquals("1", Await.until(Duration.ofSeconds(60), "1", requests));
        }

        try (LocalStack restarted = ports.start()) {
            assertEquals(clickHouse, restarted.clickHouseUrl());
            assertEquals("1", query(clickHouse, "SELECT sum(requests) FROM sluice.traffic_1m FINAL"));
            assertEquals("1", query(clickHouse, "SELECT count() FROM sluice.transactions FINAL"));
        }
        assertTrue(home.resolve("logs/clickhouse.log").toFile().exists(), "ClickHouse logs into SLUICE_HOME/logs");
    }

    static int status(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String query(String clickHouseUrl, String sql) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(clickHouseUrl + "/?query="
                            + URLEncoder.encode(sql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()).body().strip();
        } catch (Exception e) {
            return e.toString();
        }
    }
}
