package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.events.EventHeaders;
import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * Who may hold the gateway's memory: strangers nothing, one address only its share, and a
 * compressed body what it takes once decompressed. Behind a trusted proxy, the client is the
 * address the proxy forwarded.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class AdmissionIT {
    private static final String TRANSACTION = "{\"transaction\": \"GET /\"}";
    private static final int MIB = 1024 * 1024;

    @Test
    void strangersAnnouncingBigBodiesAreRefusedFromTheHeadAndTenantsAreServed(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Integer.toString(4 * MIB),
                "SLUICE_GATEWAY_RECEIVE_TIMEOUT", "60s"))) {
            ProjectAdmin.NewProject tenant = gateway.newProject("starved");
            long unauthorizedBefore = rejections(gateway, "unauthorized");
            List<RawHttp> strangers = new ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    RawHttp stranger = new RawHttp(gateway.port());
                    strangers.add(stranger);
                    stranger.send(head(tenant.token(), "slk_not_a_key_" + i, MIB)); // and no body, ever
                }
                // Every stranger's head has been decided: admitted (holding budget) or refused.
                assertEquals(8L, Await.until(Duration.ofSeconds(10), 8L, () -> gateway.gateway.metrics().inFlightRequests().get()
                        + rejections(gateway, "overloaded") + rejections(gateway, "unauthorized") - unauthorizedBefore));

                assertEquals(200, gateway.post(tenant, "transaction", TRANSACTION).statusCode());
                for (RawHttp stranger : strangers) {
                    RawHttp.Response answer = stranger.read();
                    assertEquals(401, answer.status(), answer.body());
                    assertTrue(stranger.closedByServer(), "the announced body is never buffered: the connection closes");
                }
                assertEquals(0L, gateway.gateway.metrics().inFlightBytes().get());
            } finally {
                for (RawHttp stranger : strangers) {
                    stranger.close();
                }
            }
        }
    }

    @Test
    void oneAddressHoldsAtMostItsShareOfTheInFlightBudget(Engines engines) throws Exception {
        // 4 MiB in flight, of which one address may hold 1 MiB (one largest body).
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Integer.toString(4 * MIB),
                "SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES_PER_CLIENT", Integer.toString(MIB), "SLUICE_GATEWAY_RECEIVE_TIMEOUT", "60s"))) {
            ProjectAdmin.NewProject hog = gateway.newProject("hog");
            ProjectAdmin.NewProject tenant = gateway.newProject("neighbour");
            List<RawHttp> hogs = new ArrayList<>();
            try {
                RawHttp first = new RawHttp(gateway.port(), "127.0.0.2");
                hogs.add(first);
                first.send(head(hog.token(), hog.key(), MIB)); // admitted; the body's last byte never comes
                first.sendBytes(new byte[MIB - 1]);
                assertEquals(MIB - 1L, Await.until(Duration.ofSeconds(10), MIB - 1L, () -> gateway.gateway.metrics().inFlightBytes().get()));
                long overloadedBefore = rejections(gateway, "overloaded");
                for (int i = 0; i < 3; i++) {
                    RawHttp more = new RawHttp(gateway.port(), "127.0.0.2");
                    hogs.add(more);
                    more.send(head(hog.token(), hog.key(), MIB));
                }
                assertEquals(4L, Await.until(Duration.ofSeconds(10), 4L, () -> gateway.gateway.metrics().inFlightRequests().get()
                        + rejections(gateway, "overloaded") - overloadedBefore));

                try (RawHttp neighbour = new RawHttp(gateway.port(), "127.0.0.3")) {
                    neighbour.send(RawHttp.post("/api/v1/" + tenant.token() + "/transaction", tenant.key(), TRANSACTION));
                    RawHttp.Response answer = neighbour.read();
                    assertEquals(200, answer.status(), answer.body());
                }
                for (RawHttp more : hogs.subList(1, hogs.size())) {
                    RawHttp.Response answer = more.read();
                    assertEquals(503, answer.status(), answer.body());
                    assertTrue(answer.body().contains("\"overloaded\""), answer.body());
                }
                assertEquals(MIB - 1L, gateway.gateway.metrics().inFlightBytes().get(), "the first request still holds its share");
            } finally {
                for (RawHttp connection : hogs) {
                    connection.close();
                }
            }
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));
        }
    }

    @Test
    void aCompressedBodyLargerOnceDecompressedThanTheBudgetLeftGets503AndThanTheWholeBudget413(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Integer.toString(64 * 1024)))) {
            ProjectAdmin.NewProject project = gateway.newProject("inflating");
            byte[] small = gzip("{\"transaction\": \"GET /\", \"padding\": \"" + "x".repeat(10_000) + "\"}");
            byte[] medium = gzip("{\"transaction\": \"GET /\", \"padding\": \"" + "x".repeat(40_000) + "\"}");
            byte[] large = gzip("{\"transaction\": \"GET /\", \"padding\": \"" + "x".repeat(200_000) + "\"}");
            assertTrue(large.length < 2_000, "the compressed body is small: " + large.length);

            // Could never fit, however long it waited: 413, not a 503 it would get forever.
            var never = gateway.postBytes(project, "transaction", large, "Content-Encoding", "gzip");
            assertEquals(413, never.statusCode(), never.body());
            assertTrue(never.body().contains("\"body_too_large\""), never.body());
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));

            try (RawHttp holder = new RawHttp(gateway.port())) {
                holder.send("POST /api/v1/" + project.token() + "/transaction HTTP/1.1\r\nHost: localhost\r\n"
                        + "Authorization: Bearer " + project.key() + "\r\nContent-Length: 40001\r\n\r\n" + "x".repeat(40_000));
                Await.until("the holder's reservation", Duration.ofSeconds(10), 40_000L,
                        () -> gateway.gateway.metrics().inFlightBytes().get());
                var refused = gateway.postBytes(project, "transaction", medium, "Content-Encoding", "gzip");
                assertEquals(503, refused.statusCode(), refused.body());
                assertTrue(refused.body().contains("\"overloaded\""), refused.body());
                assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
            }
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));

            assertEquals(200, gateway.postBytes(project, "transaction", small, "Content-Encoding", "gzip").statusCode(),
                    "what fits once decompressed is accepted");
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));
            assertTrue(gateway.admin("/metrics").body().contains("\nsluice_gateway_in_flight_bytes 0.0\n"));
        }
    }

    @Test
    void nothingPipelinedAfterABodyRefusedForItsSizeIsTakenOn(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("oversized");
            String path = "/api/v1/" + project.token() + "/transaction";
            String tooLarge = "{\"transaction\": \"" + "A".repeat(MIB + 10) + "\"}";
            String after = "{\"event_id\": \"eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\", \"transaction\": \"GET /\"}";
            http.send(RawHttp.post(path, project.key(), tooLarge) + RawHttp.post(path, project.key(), after));
            assertEquals(413, http.read().status());
            assertTrue(http.closedByServer(), "an answer that closes the connection is its last");
            assertEquals(List.of(), KafkaRecords.find(engines, "sluice.transactions", 1, Duration.ofSeconds(3),
                    KafkaRecords.withHeader(EventHeaders.EVENT_ID, "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee")));
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));
        }
    }

    @Test
    void behindATrustedProxyTheForwardedClientIsLimitedNotTheProxy(Engines engines) throws Exception {
        ProjectAdmin.NewProject project = projectBeforeStart(engines, "proxied");
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1/32",
                "SLUICE_GATEWAY_AUTH_FAILURE_BURST", "5", "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "1"))) {
            ProjectAdmin.NewProject guess = new ProjectAdmin.NewProject(project.token(), "slk_guess", "x");
            byte[] body = TRANSACTION.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 5; i++) {
                assertEquals(401, gateway.postBytes(guess, "transaction", body, "X-Forwarded-For", "203.0.113.7").statusCode());
            }
            assertEquals(429, gateway.postBytes(guess, "transaction", body, "X-Forwarded-For", "203.0.113.7").statusCode());
            assertEquals(429, gateway.postBytes(project, "transaction", body,
                    "X-Forwarded-For", "198.51.100.9, 203.0.113.7, 10.1.2.3").statusCode(),
                    "the right-most address that is not a trusted proxy is the client");
            assertEquals(200, gateway.postBytes(project, "transaction", body, "X-Forwarded-For", "198.51.100.9").statusCode(),
                    "another client behind the same proxy is served");
            assertEquals(200, gateway.postBytes(project, "transaction", body,
                    "X-Forwarded-For", "203.0.113.7, 198.51.100.9").statusCode(), "what the client itself prepends is not believed");
        }
    }

    @Test
    void withoutTrustedProxiesXForwardedForIsIgnored(Engines engines) throws Exception {
        ProjectAdmin.NewProject project = projectBeforeStart(engines, "unproxied");
        try (TestGateway gateway = TestGateway.start(engines, Map.of(
                "SLUICE_GATEWAY_AUTH_FAILURE_BURST", "5", "SLUICE_GATEWAY_AUTH_FAILURES_PER_MINUTE", "1"))) {
            ProjectAdmin.NewProject guess = new ProjectAdmin.NewProject(project.token(), "slk_guess", "x");
            byte[] body = TRANSACTION.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 5; i++) {
                assertEquals(401, gateway.postBytes(guess, "transaction", body, "X-Forwarded-For", "203.0.113." + i).statusCode());
            }
            assertEquals(429, gateway.postBytes(guess, "transaction", body, "X-Forwarded-For", "203.0.113.99").statusCode(),
                    "a spoofed header does not make a new client");
        }
    }

    /** A project created before the gateway starts (it reads the whole registry first): no 401 while waiting for it. */
    private static ProjectAdmin.NewProject projectBeforeStart(Engines engines, String name) {
        TopicSetup.ensureTopics(KafkaSettings.from(new Settings(Map.of(
                "SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers(), "SLUICE_TOPIC_PARTITIONS", "4"))));
        try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
            return admin.create(name);
        }
    }

    private static String head(String token, String key, int contentLength) {
        return "POST /api/v1/" + token + "/transaction HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n";
    }

    private static byte[] gzip(String json) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(json.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static long rejections(TestGateway gateway, String reason) {
        Matcher count = Pattern.compile("sluice_gateway_rejections_total\\{reason=\"" + reason + "\"} (\\d+)")
                .matcher(gateway.admin("/metrics").body());
        return count.find() ? Long.parseLong(count.group(1)) : 0;
    }
}
