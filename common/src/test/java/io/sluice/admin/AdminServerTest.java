package io.sluice.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.metrics.Scrape;

/** The admin port's answers, the same for every server: each brings only its checks and details. */
class AdminServerTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final AtomicReference<Health> health = new AtomicReference<>(Health.OK);
    private final AtomicReference<Readiness> readiness = new AtomicReference<>(new Readiness(List.of(), List.of(), Map.of()));
    private final AtomicReference<String> acceptSeen = new AtomicReference<>();
    private AdminServer admin;

    @BeforeEach
    void start() throws Exception {
        AdminChecks checks = new AdminChecks() {
            @Override
            public Health health() {
                return health.get();
            }

            @Override
            public Readiness readiness() {
                return readiness.get();
            }
        };
        admin = AdminServer.start("127.0.0.1", 0, "admin-test", checks, accept -> {
            acceptSeen.set(accept);
            return new Scrape("m 1.0\n".getBytes(StandardCharsets.UTF_8), "text/plain; version=0.0.4; charset=utf-8");
        });
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void healthIsOkWithoutDetails() throws Exception {
        assertEquals("200 {\"status\":\"ok\"}", get("/healthz"));
    }

    @Test
    void healthIs503FailedWithTheServersDetails() throws Exception {
        health.set(new Health(false, Map.of("streams", "NOT_RUNNING")));
        assertEquals("503 {\"status\":\"failed\",\"streams\":\"NOT_RUNNING\"}", get("/healthz"));
    }

    @Test
    void readinessIs503ListingEveryReasonAfterTheDetailsInTheirOrder() throws Exception {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("streams", "CREATED");
        details.put("another", "fact");
        readiness.set(new Readiness(List.of("Kafka Streams is CREATED, not RUNNING", "Kafka unreachable"),
                List.of("project 7 refused"), details));
        assertEquals("503 {\"status\":\"not_ready\",\"streams\":\"CREATED\",\"another\":\"fact\","
                + "\"reasons\":[\"Kafka Streams is CREATED, not RUNNING\",\"Kafka unreachable\"]}", get("/readyz"));
    }

    @Test
    void aReadyAnswerIsTheStatusAlone() throws Exception {
        assertEquals("200 {\"status\":\"ready\"}", get("/readyz"));
    }

    @Test
    void aReadyAnswerListsWhatFailsForSomeRequestsUnderDegraded() throws Exception {
        readiness.set(new Readiness(List.of(), List.of("project 7 refused (503 project_unavailable)"), Map.of()));
        assertEquals("200 {\"status\":\"ready\",\"degraded\":[\"project 7 refused (503 project_unavailable)\"]}", get("/readyz"));
    }

    @Test
    void aReasonWithQuotesAndControlCharactersIsValidJson() throws Exception {
        String reason = "sink stalled: \"sluice\".transactions\n\tCode: 27\\";
        readiness.set(new Readiness(List.of(reason), List.of(), Map.of()));
        String body = get("/readyz").substring("503 ".length());
        assertEquals(reason, new ObjectMapper().readTree(body).path("reasons").get(0).asText());
    }

    @Test
    void metricsAreTheScrapeInTheFormatTheAcceptHeaderAsksFor() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri("/metrics"))
                .header("Accept", "application/openmetrics-text").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("200 m 1.0\n", response.statusCode() + " " + response.body());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("application/openmetrics-text", acceptSeen.get());
    }

    @Test
    void anyOtherPathIs404NamingTheAdminPaths() throws Exception {
        assertEquals("404 {\"error\":\"not_found\",\"message\":\"admin paths: /healthz, /readyz, /metrics\"}", get("/readyz/x"));
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + admin.port() + path);
    }
}
