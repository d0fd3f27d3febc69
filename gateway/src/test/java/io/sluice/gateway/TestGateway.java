package io.sluice.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Settings;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.TestSettings;

/** A real gateway on a free port, against the test JVM's real Kafka, with helpers to call it. */
final class TestGateway implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final Gateway gateway;
    final Engines engines;

    TestGateway(Gateway gateway, Engines engines) {
        this.gateway = gateway;
        this.engines = engines;
    }

    static TestGateway start(Engines engines, Map<String, String> overrides) throws InterruptedException {
        Settings settings = TestSettings.on(engines).with("SLUICE_TOPIC_PARTITIONS", "4").with(overrides).build();
        return new TestGateway(Gateway.start(GatewayConfig.from(settings)), engines);
    }

    ProjectAdmin.NewProject newProject(String name) {
        return newProject(name, null);
    }

    /** A new project with a quota (none when null), once this gateway knows it. */
    ProjectAdmin.NewProject newProject(String name, Quota quota) {
        try (ProjectAdmin admin = projects()) {
            ProjectAdmin.NewProject project = admin.create(name, quota);
            awaitKnown(project);
            return project;
        }
    }

    /** Sets a quota of one endpoint of the project, and waits until this gateway has it. */
    void setEndpointQuota(ProjectAdmin.NewProject project, String endpoint, Quota quota) {
        try (ProjectAdmin admin = projects()) {
            admin.setQuota(project.token(), endpoint, quota);
        }
        Await.until("gateway has the " + endpoint + " quota", Duration.ofSeconds(30), true,
                () -> gateway.registry().find(project.token()).endpointQuotas().containsKey(endpoint));
    }

    /** An admin of the registry every test gateway follows; the caller closes it. */
    ProjectAdmin projects() {
        return new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects");
    }

    /**
     * Waits until this gateway's registry (it follows the topic) has the project. It asks the registry, not the
     * HTTP port: polling with requests would spend the failed-authentication budget of tests that make it small.
     */
    void awaitKnown(ProjectAdmin.NewProject project) {
        Await.until("gateway knows project " + project.name(), Duration.ofSeconds(30), true,
                () -> gateway.registry().find(project.token()) != null);
    }

    HttpRequest.Builder request(String token, String endpoint) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/" + token + "/" + endpoint))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30));
    }

    HttpResponse<String> post(ProjectAdmin.NewProject project, String endpoint, String json) {
        return send(request(project.token(), endpoint).header("Authorization", "Bearer " + project.key())
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    HttpResponse<String> postBytes(ProjectAdmin.NewProject project, String endpoint, byte[] body, String... headers) {
        HttpRequest.Builder builder = request(project.token(), endpoint).header("Authorization", "Bearer " + project.key());
        for (int i = 0; i < headers.length; i += 2) {
            builder.setHeader(headers[i], headers[i + 1]);
        }
        return send(builder.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /**
     * A project's outcome counts on the outcomes topic, once they equal {@code expected} (the
     * gateway writes them every SLUICE_GATEWAY_OUTCOMES_INTERVAL), else as last read after 30 s.
     */
    static Map<String, Long> outcomes(Engines engines, ProjectAdmin.NewProject project, Map<String, Long> expected)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<String, Long> counts = new HashMap<>();
        while (System.nanoTime() < deadline) {
            counts.clear();
            // All rows written before this read, not those a fixed time lets a fresh consumer fetch.
            for (ConsumerRecord<byte[], byte[]> record : KafkaRecords.upToEnd(engines, "sluice.outcomes", Duration.ofSeconds(30),
                    r -> new String(r.key(), StandardCharsets.UTF_8).startsWith(project.token() + "/"))) {
                JsonNode row = JSON.readTree(record.value());
                counts.merge(row.get("outcome").asText(), row.get("events").asLong(), Math::max);
            }
            counts.remove("invalid_json"); // newProject's probe, "[]" to the v1 API, until the project is known
            counts.remove("unauthorized"); // the same probe, refused just before the registry knew the project, counted after
            if (counts.equals(expected)) {
                break;
            }
            Thread.sleep(200);
        }
        return counts;
    }

    HttpResponse<String> admin(String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + path)).build());
    }

    static HttpResponse<String> send(HttpRequest request) {
        // Every request is bounded: a gateway that never answers fails the test instead of hanging it.
        HttpRequest bounded = request.timeout().isPresent() ? request
                : HttpRequest.newBuilder(request, (name, value) -> true).timeout(Duration.ofSeconds(30)).build();
        try {
            return HTTP.send(bounded, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("request to " + request.uri() + " failed", e);
        }
    }

    int port() {
        return gateway.port();
    }

    @Override
    public void close() {
        gateway.close();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
