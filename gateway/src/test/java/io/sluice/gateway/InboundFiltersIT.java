package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * Inbound filters through the real gateway and Kafka (issue #41): health checks take no quota and
 * are not published, and a browser extension's error sent by a Sentry SDK is answered 200 and not
 * published; each is counted as {@code filtered:<filter>}.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class InboundFiltersIT {
    private static final List<String> PROBES = List.of("/healthz", "/ready", "GET /livez", "/health", "GET /ping");

    static Engines engines;
    static TestGateway gateway;

    @BeforeAll
    static void start(Engines started) throws Exception {
        engines = started;
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_OUTCOMES_INTERVAL", "200ms"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void aHundredHealthChecksTakeNoQuotaSoTheTenRealRequestsAfterThemAreAllAccepted() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("probed", new Quota(20, 20));
        // Four at a time: as a load balancer's and Kubernetes' probes arrive, faster than the quota refills.
        ExecutorService senders = Executors.newFixedThreadPool(4);
        List<Future<HttpResponse<String>>> probes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String name = PROBES.get(i % PROBES.size());
            probes.add(senders.submit(() -> gateway.post(project, "transaction", "{\"transaction\":\"" + name + "\"}")));
        }
        for (Future<HttpResponse<String>> probe : probes) {
            HttpResponse<String> answer = probe.get(60, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), answer.body());
        }
        senders.shutdown();
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> answer = gateway.post(project, "transaction", "{\"event_id\":\"" + String.format("%032x", 0xf1f1_0000L + i)
                    + "\",\"transaction\":\"GET /checkout\"}");
            if (answer.statusCode() != 200) {
                refused.add(answer.statusCode() + " " + answer.body());
            }
        }
        assertEquals(List.of(), refused, "real requests after the probes");
        List<String> published = KafkaRecords.upToEnd(engines, "sluice.transactions", Duration.ofSeconds(30),
                        r -> project.token().equals(new String(r.key(), StandardCharsets.UTF_8)))
                .stream().map(r -> KafkaRecords.header(r, EventHeaders.EVENT_ID)).sorted().toList();
        assertEquals(java.util.stream.IntStream.range(0, 10).mapToObj(i -> String.format("%032x", 0xf1f1_0000L + i)).toList(),
                published, "the ten real requests only");
        Map<String, Long> expected = Map.of("accepted", 10L, "filtered:health_check", 100L);
        assertEquals(expected, TestGateway.outcomes(engines, project, expected));
    }

    @Test
    void aChromeExtensionsErrorSentByASentrySdkIsAnswered200AndNotPublished() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("extended");
        String extension = "e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1";
        String own = "e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2";
        String body = "{}\n{\"type\":\"event\"}\n" + error(extension, "chrome-extension://abcdefghijklmnop/content.js")
                + "\n{\"type\":\"event\"}\n" + error(own, "https://shop.example/static/app.js") + "\n";
        HttpResponse<String> answer = TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("{\"id\":\"" + own + "\"}", answer.body());
        List<String> published = KafkaRecords.upToEnd(engines, "sluice.errors", Duration.ofSeconds(30),
                        r -> project.token().equals(new String(r.key(), StandardCharsets.UTF_8)))
                .stream().map(r -> KafkaRecords.header(r, EventHeaders.EVENT_ID)).toList();
        assertEquals(List.of(own), published, "the tenant's own error only");
        Map<String, Long> expected = Map.of("accepted", 1L, "filtered:browser_extensions", 1L);
        assertEquals(expected, TestGateway.outcomes(engines, project, expected));
    }

    @Test
    void openTelemetryProbeSpansAreFilteredNotNamedAsRejectedAndGiveTheirQuotaBack() throws Exception {
        ProjectAdmin.NewProject project = gateway.newProject("otlp-probed", new Quota(1, 10));
        // The probes take the whole burst of 10 before they are decoded, and give it back once filtered: the ten
        // orders after them have it (without it, 1 token a second would have come back meanwhile).
        HttpResponse<String> probes = exportSpans(project, spans("GET /healthz", 0xa0));
        assertEquals(200, probes.statusCode(), probes.body());
        assertEquals(false, probes.body().contains("partialSuccess"), probes.body());
        HttpResponse<String> orders = exportSpans(project, spans("GET /orders", 0xb0));
        assertEquals(200, orders.statusCode(), orders.body());
        assertEquals(false, orders.body().contains("partialSuccess"), orders.body());
        List<String> published = KafkaRecords.upToEnd(engines, "sluice.transactions", Duration.ofSeconds(30),
                        r -> project.token().equals(new String(r.key(), StandardCharsets.UTF_8))).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
        assertEquals(10, published.size(), published.toString());
        assertEquals(0, published.stream().filter(json -> json.contains("healthz")).count(), published.toString());
        Map<String, Long> expected = Map.of("accepted", 10L, "filtered:health_check", 10L);
        assertEquals(expected, TestGateway.outcomes(engines, project, expected));
    }

    /** Ten server spans (kind 2) of handled requests of this name. */
    private static String spans(String name, int firstSpan) {
        List<String> spans = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            spans.add("{\"traceId\": \"5b8efff798038103d269b633813fc60c\", \"spanId\": \"" + String.format("aaa19b7ec3c1b%03x", firstSpan + i)
                    + "\", \"kind\": 2, \"name\": \"" + name
                    + "\", \"attributes\": [{\"key\": \"http.response.status_code\", \"value\": {\"intValue\": \"200\"}}]}");
        }
        return String.join(",", spans);
    }

    private static HttpResponse<String> exportSpans(ProjectAdmin.NewProject project, String spans) {
        String body = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [" + spans + "]}]}]}";
        return gateway.postBytes(project, "otlp/v1/traces", body.getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
    }

    /** A browser SDK's error whose last frame is in {@code source}. */
    private static String error(String eventId, String source) {
        return "{\"event_id\":\"" + eventId + "\",\"platform\":\"javascript\",\"exception\":{\"values\":[{\"type\":\"TypeError\","
                + "\"value\":\"Cannot read properties of undefined (reading 'x')\",\"stacktrace\":{\"frames\":["
                + "{\"abs_path\":\"https://shop.example/static/vendor.js\",\"function\":\"dispatch\"},"
                + "{\"abs_path\":\"" + source + "\",\"function\":\"onMessage\"}]}}]},"
                + "\"request\":{\"url\":\"https://shop.example/cart\",\"headers\":{\"User-Agent\":\"Mozilla/5.0 (Macintosh; Intel Mac OS X "
                + "10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\"}}}";
    }
}
