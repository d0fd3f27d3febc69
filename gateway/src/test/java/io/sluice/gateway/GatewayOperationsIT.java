package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/** Keep-alive, pipelining, limits, timeouts, overload, admin port: each on a gateway of its own. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GatewayOperationsIT {
    private static final String TRANSACTION = "{\"transaction\": \"GET /\", \"tags\": {\"http.status_code\": 200}}";

    @Test
    void pipelinedRequestsOnOneConnectionAreAnsweredInOrder(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("pipelined");
            String path = "/api/v1/" + project.token() + "/transaction";
            StringBuilder three = new StringBuilder();
            for (String id : List.of("11111111111111111111111111111111", "22222222222222222222222222222222",
                    "33333333333333333333333333333333")) {
                three.append(RawHttp.post(path, project.key(), "{\"event_id\": \"" + id + "\", \"transaction\": \"GET /\"}"));
            }
            http.send(three.toString());
            assertEquals(List.of(
                    new RawHttp.Response(200, "{\"id\":\"11111111111111111111111111111111\"}"),
                    new RawHttp.Response(200, "{\"id\":\"22222222222222222222222222222222\"}"),
                    new RawHttp.Response(200, "{\"id\":\"33333333333333333333333333333333\"}")), http.read(3));
        }
    }

    @Test
    void aBodyNotCompleteWithinTheReceiveTimeoutGets408(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_RECEIVE_TIMEOUT", "1s"));
             RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("slow");
            String request = RawHttp.post("/api/v1/" + project.token() + "/transaction", project.key(), TRANSACTION);
            http.send(request.substring(0, request.length() - 10)); // the last 10 bytes never come
            RawHttp.Response response = http.read();
            assertEquals(408, response.status());
            assertTrue(response.body().contains("\"request_timeout\""), response.body());
            assertTrue(http.closedByServer());
        }
    }

    @Test
    void anIdleConnectionIsClosed(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_IDLE_TIMEOUT", "1s"));
             RawHttp http = new RawHttp(gateway.port())) {
            long start = System.nanoTime();
            assertTrue(http.closedByServer());
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos());
        }
    }

    @Test
    void connectionsBeyondTheCapGet503WithRetryAfter(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_CONNECTIONS", "1"));
             RawHttp first = new RawHttp(gateway.port())) {
            Await.until(Duration.ofSeconds(5), 1L, () -> gateway.gateway.metrics().openConnections().get());
            RawHttp second = new RawHttp(gateway.port());
            ProjectAdmin.NewProject project = new ProjectAdmin.NewProject("any", "slk_any", "x");
            second.send(RawHttp.post("/api/v1/any/transaction", project.key(), TRANSACTION));
            RawHttp.Response response = second.read();
            assertEquals(503, response.status());
            assertTrue(response.body().contains("\"overloaded\""), response.body());
            assertEquals("1", second.header("Retry-After"));
            second.close();
        }
    }

    @Test
    void aRequestLargerThanTheWholeInFlightBudgetGets413NotA503ItWouldGetForever(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", "1000"))) {
            ProjectAdmin.NewProject project = gateway.newProject("budget");
            String large = "{\"transaction\": \"GET /\", \"padding\": \"" + "x".repeat(2000) + "\"}";
            HttpResponse<String> response = gateway.post(project, "transaction", large);
            assertEquals(413, response.statusCode(), response.body());
            assertTrue(response.body().contains("\"body_too_large\""), response.body());
            assertEquals(200, gateway.post(project, "transaction", TRANSACTION).statusCode(), "small requests still pass");
        }
    }

    @Test
    void headersLargerThanTheLimitGet431(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            http.send("POST /api/v1/t/transaction HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
            RawHttp.Response response = http.read();
            assertEquals(431, response.status(), response.body());
            assertEquals("headers_too_large", errorCode(response));
            assertEquals("close", http.header("Connection"));
        }
    }

    @Test
    void aRequestLineLongerThanTheLimitGets414(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            http.send("POST /api/v1/" + "t".repeat(10_000) + "/transaction HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response response = http.read();
            assertEquals(414, response.status(), response.body());
            assertEquals("uri_too_long", errorCode(response));
            assertEquals("close", http.header("Connection"));
        }
    }

    @Test
    void malformedHttpGets400BadRequestAndTheConnectionCloses(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of())) {
            for (String malformed : List.of(
                    "POST /api/v1/t/transaction HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n",
                    "POST /api/v1/t/transaction HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}")) {
                try (RawHttp http = new RawHttp(gateway.port())) {
                    http.send(malformed);
                    RawHttp.Response response = http.read();
                    assertEquals(400, response.status(), malformed);
                    assertEquals("bad_request", errorCode(response), malformed);
                    assertEquals("close", http.header("Connection"), malformed);
                    assertTrue(http.closedByServer(), malformed);
                }
            }
        }
    }

    @Test
    void theAdminPortServesHealthReadinessAndMetrics(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of())) {
            ProjectAdmin.NewProject project = gateway.newProject("observed");
            // Waiting for the registry to know the project may itself have been answered 401: count from here.
            String before = gateway.admin("/metrics").body();
            gateway.post(project, "transaction", TRANSACTION);
            gateway.post(new ProjectAdmin.NewProject(project.token(), "slk_wrong", "x"), "transaction", TRANSACTION);

            assertEquals("{\"status\":\"ok\"}", gateway.admin("/healthz").body());
            HttpResponse<String> ready = gateway.admin("/readyz");
            assertEquals(200, ready.statusCode(), ready.body());
            String metrics = gateway.admin("/metrics").body();
            String ok = "sluice_gateway_requests_total{endpoint=\"transaction\",status=\"200\"}";
            String unauthorized = "sluice_gateway_requests_total{endpoint=\"transaction\",status=\"401\"}";
            String rejected = "sluice_gateway_rejections_total{reason=\"unauthorized\"}";
            assertEquals(1, value(metrics, ok) - value(before, ok), metrics);
            assertEquals(1, value(metrics, unauthorized) - value(before, unauthorized), metrics);
            assertEquals(1, value(metrics, rejected) - value(before, rejected), metrics);
            assertTrue(metrics.contains("sluice_gateway_kafka_produce_duration_seconds_count 1\n"), metrics);
            assertTrue(!metrics.contains(project.key()) && !metrics.contains(project.token()), "no secrets or tokens as labels");
        }
    }

    @Test
    void theMetricsIncludeTheJvmNettyAndKafkaProducerMeters(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of())) {
            ProjectAdmin.NewProject project = gateway.newProject("operated");
            assertEquals(200, gateway.post(project, "transaction", TRANSACTION).statusCode());

            HttpResponse<String> response = gateway.admin("/metrics");
            assertEquals("text/plain; version=0.0.4; charset=utf-8", response.headers().firstValue("Content-Type").orElse(""));
            String metrics = response.body();
            for (String meter : List.of(
                    "jvm_memory_used_bytes{area=\"heap\"", "jvm_gc_memory_allocated_bytes_total ", "jvm_threads_live_threads ",
                    "process_cpu_usage ",
                    "netty_eventexecutor_tasks_pending{group=\"workers\",name=\"", "netty_eventexecutor_tasks_pending{group=\"acceptor\",",
                    "netty_allocator_memory_used{allocator_type=\"", "netty_direct_memory_max_bytes ",
                    "kafka_producer_request_latency_avg{client_id=\"sluice-gateway\"",
                    "kafka_producer_record_send_total{client_id=\"sluice-gateway\"")) {
                assertTrue(metrics.contains("\n" + meter), meter + " in\n" + metrics);
            }
            assertTrue(!metrics.contains(project.key()) && !metrics.contains(project.token()), "no secrets or tokens as labels");
        }
    }

    @Test
    void closingStopsAcceptingButAnswersTheRequestInFlightWithConnectionClose(Engines engines) throws Exception {
        TestGateway gateway = TestGateway.start(engines, Map.of());
        ProjectAdmin.NewProject project = gateway.newProject("draining");
        int port = gateway.port();
        try (RawHttp http = new RawHttp(port)) {
            String request = RawHttp.post("/api/v1/" + project.token() + "/transaction", project.key(),
                    "{\"event_id\": \"dddddddddddddddddddddddddddddddd\", \"transaction\": \"GET /\"}");
            http.send(request.substring(0, request.length() - 5)); // admitted, body not complete yet
            Await.until(Duration.ofSeconds(5), 1L, () -> gateway.gateway.metrics().inFlightRequests().get());

            Thread closing = new Thread(gateway::close);
            closing.start();
            Await.until(Duration.ofSeconds(5), false, () -> accepts(port));
            assertTrue(!accepts(port), "no new connections while draining");

            http.send(request.substring(request.length() - 5));
            RawHttp.Response response = http.read();
            assertEquals(new RawHttp.Response(200, "{\"id\":\"dddddddddddddddddddddddddddddddd\"}"), response);
            assertEquals("close", http.header("Connection"), "an answer during the drain closes its connection");
            assertTrue(http.closedByServer());
            closing.join(10_000);
            assertTrue(!closing.isAlive(), "close() returned once the request was answered");
        }
        assertEquals(1, KafkaRecords.find(engines, "sluice.transactions", 1, Duration.ofSeconds(10),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, "dddddddddddddddddddddddddddddddd")).size());
    }

    @Test
    void aRequestArrivingWhileTheGatewayDrainsGets503ShuttingDownAndItsConnectionCloses(Engines engines) throws Exception {
        TestGateway gateway = TestGateway.start(engines, Map.of());
        ProjectAdmin.NewProject project = gateway.newProject("late");
        String path = "/api/v1/" + project.token() + "/transaction";
        String late = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
        try (RawHttp open = new RawHttp(gateway.port()); Held held = Held.on(gateway, project, "e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0")) {
            open.send(RawHttp.post(path, project.key(), TRANSACTION)); // a keep-alive connection from before the drain
            assertEquals(200, open.read().status());

            Thread closing = held.closeGateway();
            open.send(RawHttp.post(path, project.key(), "{\"event_id\": \"" + late + "\", \"transaction\": \"GET /\"}"));
            RawHttp.Response response = open.read();
            assertEquals(503, response.status(), response.body());
            assertEquals("shutting_down", errorCode(response));
            assertEquals("1", open.header("Retry-After"));
            assertEquals("close", open.header("Connection"));
            assertTrue(open.closedByServer());

            assertEquals(200, held.finish().status());
            closing.join(30_000);
            assertTrue(!closing.isAlive());
        }
        // The held event is there to show the topic was read; the refused one must not be. The gateway
        // is closed, its producer with it: all it ever published is below the end offsets.
        assertEquals(List.of("e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0"), KafkaRecords.upToEnd(engines, "sluice.transactions",
                Duration.ofSeconds(30), record -> List.of(late, "e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0")
                        .contains(KafkaRecords.header(record, EventHeaders.EVENT_ID)))
                .stream().map(record -> KafkaRecords.header(record, EventHeaders.EVENT_ID)).toList());
    }

    @Test
    void readinessIs503WhileTheGatewayDrains(Engines engines) throws Exception {
        TestGateway gateway = TestGateway.start(engines, Map.of());
        ProjectAdmin.NewProject project = gateway.newProject("unready");
        try (Held held = Held.on(gateway, project, "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0")) {
            assertEquals(200, gateway.admin("/readyz").statusCode());
            Thread closing = held.closeGateway();
            assertEquals(503, Await.until(Duration.ofSeconds(5), 503, () -> gateway.admin("/readyz").statusCode()));
            assertTrue(gateway.admin("/readyz").body().contains("shutting down"), gateway.admin("/readyz").body());
            assertEquals(200, held.finish().status());
            closing.join(30_000);
            assertTrue(!closing.isAlive());
        }
    }

    /**
     * SLUICE_GATEWAY_SHUTDOWN_TIMEOUT bounds the wait for a request that never completes: the stop ends
     * sooner than the default timeout (20 s) or the held request's receive timeout (60 s) could have
     * ended the drain. After the drain, close() flushes the last outcomes and the producer and closes
     * the clients and threads; each step is bounded by its own timeout, but on a healthy Kafka they
     * take well under a second, so the 18 s left under the default are slack for a slow machine.
     */
    @Test
    void theDrainEndsAtTheShutdownTimeoutEvenWhenARequestIsHeld(Engines engines) throws Exception {
        TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_SHUTDOWN_TIMEOUT", "2s",
                "SLUICE_GATEWAY_RECEIVE_TIMEOUT", "60s"));
        ProjectAdmin.NewProject project = gateway.newProject("held");
        try (Held held = Held.on(gateway, project, "abababababababababababababababab")) {
            long start = System.nanoTime();
            Thread closing = held.closeGateway();
            closing.join(60_000);
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(!closing.isAlive(), "close() still running after 60 s");
            System.out.println("closed in " + elapsedMillis + " ms with a request held, shutdown timeout 2 s");
            assertTrue(elapsedMillis >= 2_000, "waited for the held request: " + elapsedMillis + " ms");
            long defaultTimeoutMillis = new Settings(Map.of()).getDuration(GatewayConfig.SHUTDOWN_TIMEOUT).toMillis();
            assertTrue(elapsedMillis < defaultTimeoutMillis, "the drain ended at the 2 s timeout set, not at the default "
                    + defaultTimeoutMillis + " ms or the held request's own timeout: stopped in " + elapsedMillis + " ms");
        }
    }

    /** A request admitted but whose body is not complete: it keeps the gateway draining until {@link #finish}. */
    private static final class Held implements AutoCloseable {
        private final TestGateway gateway;
        private final RawHttp http;
        private final String rest;
        private final int port;

        private Held(TestGateway gateway, RawHttp http, String rest) {
            this.gateway = gateway;
            this.port = gateway.port();
            this.http = http;
            this.rest = rest;
        }

        static Held on(TestGateway gateway, ProjectAdmin.NewProject project, String eventId) throws Exception {
            RawHttp http = new RawHttp(gateway.port());
            String request = RawHttp.post("/api/v1/" + project.token() + "/transaction", project.key(),
                    "{\"event_id\": \"" + eventId + "\", \"transaction\": \"GET /\"}");
            http.send(request.substring(0, request.length() - 5));
            Await.until(Duration.ofSeconds(5), 1L, () -> gateway.gateway.metrics().inFlightRequests().get());
            return new Held(gateway, http, request.substring(request.length() - 5));
        }

        /** Starts closing the gateway and returns once it drains (no longer accepts connections). */
        Thread closeGateway() {
            Thread closing = new Thread(gateway::close, "closing-gateway");
            closing.start();
            Await.until(Duration.ofSeconds(5), false, () -> accepts(port));
            return closing;
        }

        RawHttp.Response finish() throws Exception {
            http.send(rest);
            return http.read();
        }

        @Override
        public void close() throws Exception {
            http.close();
        }
    }

    private static String errorCode(RawHttp.Response response) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).path("error").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }

    private static boolean accepts(int port) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException refused) {
            return false;
        }
    }

    /** The value of one series in Prometheus text ("1" or "1.0"), 0 when it is not there yet. */
    private static long value(String metrics, String series) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(series + " ")) {
                return (long) Double.parseDouble(line.substring(series.length() + 1).strip());
            }
        }
        return 0;
    }
}
