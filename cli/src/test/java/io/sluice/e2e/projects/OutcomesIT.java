package io.sluice.e2e.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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

import io.sluice.e2e.TestPipeline;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.gateway.Gateway;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * The outcomes the README lists, each provoked on a real gateway and counted exactly in
 * {@code sluice.outcomes_1m} (through the outcomes topic and the processor's sink), under the
 * project the request named, or {@code ''} when it named none that is known. Each test's gateway
 * starts after its projects exist (it reads the whole registry first), so no probe is counted.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class OutcomesIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String TRANSACTION = "{\"transaction\": \"GET /\", \"tags\": {\"http.status_code\": 200}}";
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    private static final String DB = "sluice_outcomes_it";

    @TempDir
    static Path stateDir;

    static Engines engines;
    /** Its processor counts the outcomes; each test starts the gateway it needs. */
    static TestPipeline pipeline;

    @BeforeAll
    static void start(Engines realEngines) throws Exception {
        engines = realEngines;
        pipeline = TestPipeline.named("outcomes_it", engines, stateDir)
                .with("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "500ms").with("SLUICE_TOPIC_PARTITIONS", "2").withoutGateway().start();
    }

    @AfterAll
    static void stop() {
        pipeline.close();
    }

    @Test
    void requestsNamingNoKnownProjectAreCountedUnderTheEmptyProject() throws Exception {
        ProjectAdmin.NewProject known = pipeline.createProject("known");
        try (Gateway gateway = pipeline.startGateway(Map.of())) {
            assertEquals(200, post(gateway.port(), known, "transaction", TRANSACTION).statusCode(), "names this gateway's rows");
            for (int i = 0; i < 3; i++) {
                ProjectAdmin.NewProject unknown = new ProjectAdmin.NewProject("no-such-token-" + i, "slk_nothing", "x");
                assertEquals(401, post(gateway.port(), unknown, "transaction", TRANSACTION).statusCode());
            }
            assertEquals(404, send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v2/events"))
                    .POST(HttpRequest.BodyPublishers.ofString(TRANSACTION))).statusCode());
        }
        // Only this gateway's rows: other tests' gateways count their own requests under '' too.
        String expected = "not_found\t1\nunauthorized\t3";
        assertEquals(expected, Await.until(ARRIVAL, expected, () -> ClickHouseQuery.run(engines,
                "SELECT outcome, sum(events) FROM " + DB + ".outcomes_1m FINAL WHERE project = '' AND gateway IN "
                        + "(SELECT gateway FROM " + DB + ".outcomes_1m FINAL WHERE project = {project:String}) "
                        + "GROUP BY outcome ORDER BY outcome", Map.of("project", known.token()))));
        assertEquals("accepted\t1", outcomes(known), "nothing of it under the known project");
    }

    @Test
    void aBodyDeclaredOverTheLimitIsCountedAsBodyTooLargeUnderItsProject() throws Exception {
        ProjectAdmin.NewProject project = pipeline.createProject("oversized");
        try (Gateway gateway = pipeline.startGateway(Map.of())) {
            for (int i = 0; i < 2; i++) {
                try (Socket socket = connect(gateway.port())) {
                    socket.getOutputStream().write(head(project, 1024 * 1024 + 1)); // refused from the head: no body sent
                    assertEquals(413, status(socket));
                }
            }
        }
        assertEquals("body_too_large\t2", awaitOutcomes(project, "body_too_large\t2"));
    }

    @Test
    void aRequestOverTheInFlightBudgetIsCountedAsOverloadedUnderItsProject() throws Exception {
        ProjectAdmin.NewProject project = pipeline.createProject("crowded");
        String body = TRANSACTION.substring(0, TRANSACTION.length() - 1) + ", \"pad\": \"" + "x".repeat(1500) + "\"}";
        int size = body.getBytes(StandardCharsets.UTF_8).length;
        try (Gateway gateway = pipeline.startGateway(Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "2048"));
             Socket holder = connect(gateway.port())) {
            OutputStream out = holder.getOutputStream();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(head(project, size));
            out.write(bytes, 0, size - 1); // admitted, and holds what of its body has arrived
            out.flush();
            assertEquals((long) size - 1, Await.until(Duration.ofSeconds(10), (long) size - 1, () -> gateway.metrics().inFlightBytes().get()));
            try (Socket second = connect(gateway.port())) {
                second.getOutputStream().write(head(project, size));
                assertEquals(503, status(second));
            }
            out.write(bytes, size - 1, 1);
            assertEquals(200, status(holder));
        }
        assertEquals("accepted\t1\noverloaded\t1", awaitOutcomes(project, "accepted\t1\noverloaded\t1"));
    }

    @Test
    void aDisabledProjectsRequestsAreCountedAsProjectDisabledUnderItsProject() throws Exception {
        ProjectAdmin.NewProject project = pipeline.createProject("paused");
        try (ProjectAdmin admin = pipeline.projects()) {
            admin.setDisabled(project.token(), true);
        }
        try (Gateway gateway = pipeline.startGateway(Map.of())) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> refused = post(gateway.port(), project, "transaction", TRANSACTION);
                assertEquals(403, refused.statusCode());
                assertTrue(refused.body().startsWith("{\"error\":\"project_disabled\""), refused.body());
            }
        }
        assertEquals("project_disabled\t3", awaitOutcomes(project, "project_disabled\t3"));
    }

    /** Needs a broker of its own, to stop it; its processor writes to a database of its own. */
    @Test
    void eventsKafkaDidNotAcknowledgeAreCountedAsUnavailableOnceKafkaIsBack(@TempDir Path dir) throws Exception {
        int kafkaPort = Ports.free();
        int controllerPort = Ports.free();
        KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), kafkaPort, controllerPort);
        TestPipeline outage = TestPipeline.named("outcomes_outage_it", engines, dir.resolve("state"))
                .with("SLUICE_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers())
                .with("SLUICE_TOPIC_PARTITIONS", "1")
                .with("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "500ms")
                .with("SLUICE_GATEWAY_PUBLISH_TIMEOUT", "1s")
                .with("SLUICE_GATEWAY_SHUTDOWN_TIMEOUT", "2s")
                .create();
        ProjectAdmin.NewProject project = outage.createProject("outage");
        outage.start();
        Gateway gateway = outage.gateway();
        try {
            assertEquals(200, post(gateway.port(), project, "transaction", TRANSACTION).statusCode());
            broker.close();
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> refused = post(gateway.port(), project, "transaction", TRANSACTION);
                assertEquals(503, refused.statusCode(), refused.body());
                assertTrue(refused.body().startsWith("{\"error\":\"unavailable\""), refused.body());
            }
            broker = KafkaBroker.start(dir.resolve("kafka"), kafkaPort, controllerPort);
            String expected = "accepted\t1\nunavailable\t2";
            assertEquals(expected, Await.until(Duration.ofSeconds(120), expected, () -> ClickHouseQuery.run(engines,
                    "SELECT outcome, sum(events) FROM sluice_outcomes_outage_it.outcomes_1m FINAL WHERE project = {project:String} "
                            + "GROUP BY outcome ORDER BY outcome", Map.of("project", project.token()))));
        } finally {
            outage.close();
            broker.close();
        }
    }

    private static String outcomes(ProjectAdmin.NewProject project) {
        return ClickHouseQuery.run(engines, "SELECT outcome, sum(events) FROM " + DB + ".outcomes_1m FINAL WHERE project = {project:String} "
                + "GROUP BY outcome ORDER BY outcome", Map.of("project", project.token()));
    }

    private static String awaitOutcomes(ProjectAdmin.NewProject project, String expected) {
        return Await.until(ARRIVAL, expected, () -> outcomes(project));
    }

    private static HttpResponse<String> post(int port, ProjectAdmin.NewProject project, String endpoint, String json) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/" + project.token() + "/" + endpoint))
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Socket connect(int port) throws Exception {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000); // a gateway that never answers fails the test instead of hanging it
        return socket;
    }

    /** A request head declaring {@code contentLength}, without its body. */
    private static byte[] head(ProjectAdmin.NewProject project, int contentLength) {
        return ("POST /api/v1/" + project.token() + "/transaction HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + project.key()
                + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The status of the next answer on this connection (read once per connection). */
    private static int status(Socket socket) throws Exception {
        String line = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertTrue(line != null && line.startsWith("HTTP/1.1 "), "a status line: " + line);
        return Integer.parseInt(line.substring(9, 12));
    }
}
