package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * Pipelined requests on one connection get their answers in request order, each request is
 * filed under its own project and route, and nothing behind an answer that closes the connection
 * is taken on. What a request may not do is refused from its head, before its body is read.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class InOrderAnswersIT {
    private final String firstId = newEventId();
    private final String secondId = newEventId();
    private final String behindId = newEventId();

    @Test
    void aPipelinedBodyDeclaredTooLargeIsAnsweredAfterTheRequestsBeforeIt(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject first = gateway.newProject("pipelined-first");
            ProjectAdmin.NewProject second = gateway.newProject("pipelined-second");
            String oversizedHead = "POST /api/v1/" + first.token() + "/transaction HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    + first.key() + "\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n";
            http.send(RawHttp.post("/api/v1/" + first.token() + "/transaction", first.key(), transaction(firstId))
                    + RawHttp.post("/api/v1/" + second.token() + "/project", second.key(), errorReport(secondId))
                    + oversizedHead);

            List<RawHttp.Response> answers = http.read(3);
            assertEquals(List.of(200, 200, 413), answers.stream().map(RawHttp.Response::status).toList(), answers.toString());
            assertTrue(answers.get(0).body().contains(firstId), answers.get(0).body());
            assertTrue(answers.get(1).body().contains(secondId), answers.get(1).body());
            assertTrue(http.closedByServer(), "the refusal is the connection's last answer");

            ConsumerRecord<byte[], byte[]> firstRecord = only(engines, "sluice.transactions", firstId);
            assertEquals(first.token(), KafkaRecords.header(firstRecord, EventHeaders.PROJECT));
            ConsumerRecord<byte[], byte[]> secondRecord = only(engines, "sluice.errors", secondId);
            assertEquals(second.token(), KafkaRecords.header(secondRecord, EventHeaders.PROJECT));
            assertEquals("project", KafkaRecords.header(secondRecord, EventHeaders.ENDPOINT));
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));
        }
    }

    @Test
    void aPipelinedBodyThatGrowsTooLargeIsAnsweredAfterTheRequestBeforeIt(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_BODY_BYTES", "1024")); RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("chunked");
            String path = "/api/v1/" + project.token() + "/transaction";
            ByteArrayOutputStream write = new ByteArrayOutputStream();
            write.write(RawHttp.post(path, project.key(), transaction(firstId)).getBytes(StandardCharsets.UTF_8));
            write.write(("POST " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + project.key()
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 3; i++) { // no declared size, 1536 bytes in all
                write.write(("200\r\n" + "x".repeat(512) + "\r\n").getBytes(StandardCharsets.UTF_8));
            }
            write.write("0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            http.sendBytes(write.toByteArray());

            List<RawHttp.Response> answers = http.read(2);
            assertEquals(List.of(200, 413), answers.stream().map(RawHttp.Response::status).toList(), answers.toString());
            assertTrue(answers.get(0).body().contains(firstId), answers.get(0).body());
            assertTrue(answers.get(1).body().contains("\"body_too_large\""), answers.get(1).body());
            assertTrue(http.closedByServer(), "the refusal is the connection's last answer");
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));
        }
    }

    @Test
    void requestsWaitingBehindAnAnswerThatClosesTheConnectionAreNotPublished(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Integer.toString(256 * 1024)));
             RawHttp http = new RawHttp(gateway.port()); RawHttp holder = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("closing");
            String path = "/api/v1/" + project.token() + "/transaction";
            // Another request holds 100,000 bytes of the budget (its body's last byte never comes), so the 200 KB
            // the next body inflates to fits the budget, but not now: a 503 overloaded, which closes.
            holder.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + project.key()
                    + "\r\nContent-Type: application/json\r\nContent-Length: 100001\r\n\r\n" + "x".repeat(100_000));
            assertEquals(100_000L, Await.until(Duration.ofSeconds(10), 100_000L, () -> gateway.gateway.metrics().inFlightBytes().get()));
            byte[] inflating = gzip("{\"transaction\": \"GET /\", \"padding\": \"" + "x".repeat(200_000) + "\"}");
            String inflatingHead = "POST " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + project.key()
                    + "\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: " + inflating.length + "\r\n\r\n";
            ByteArrayOutputStream write = new ByteArrayOutputStream();
            write.write(RawHttp.post(path, project.key(), transaction(firstId)).getBytes(StandardCharsets.UTF_8));
            write.write(inflatingHead.getBytes(StandardCharsets.UTF_8));
            write.write(inflating);
            write.write(RawHttp.post(path, project.key(), transaction(behindId)).getBytes(StandardCharsets.UTF_8));
            http.sendBytes(write.toByteArray());

            assertEquals(200, http.read().status());
            RawHttp.Response refused = http.read();
            assertEquals(503, refused.status(), refused.body());
            assertTrue(refused.body().contains("\"overloaded\""), refused.body());
            assertEquals(1L, gateway.gateway.metrics().inFlightRequests().get(),
                    "only the holder's request is in flight: the one behind the 503 holds nothing once the 503 is written");
            assertTrue(http.closedByServer(), "a 5xx answer closes the connection");

            only(engines, "sluice.transactions", firstId);
            assertEquals(List.of(), KafkaRecords.find(engines, "sluice.transactions", 1, Duration.ofSeconds(3),
                    KafkaRecords.withHeader(EventHeaders.EVENT_ID, behindId)), "the request behind the 503 was never answered");
            assertEquals(100_000L, Await.until(Duration.ofSeconds(10), 100_000L, () -> gateway.gateway.metrics().inFlightBytes().get()),
                    "only the holder's reservation is left");
        }
    }

    @Test
    void aContinueIsSentOnceTheAnswersToEarlierRequestsAre(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("expecting");
            String path = "/api/v1/" + project.token() + "/transaction";
            String body = transaction(secondId);
            http.send(RawHttp.post(path, project.key(), transaction(firstId)) + "POST " + path
                    + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + project.key() + "\r\nContent-Type: application/json"
                    + "\r\nExpect: 100-continue\r\nContent-Length: " + body.length() + "\r\n\r\n");

            RawHttp.Response firstAnswer = http.read();
            assertEquals(200, firstAnswer.status(), "the first answer belongs to the first request");
            assertTrue(firstAnswer.body().contains(firstId), firstAnswer.body());
            assertEquals(100, http.read().status(), "the second request, next in line, is told to send its body");
            http.send(body);
            RawHttp.Response secondAnswer = http.read();
            assertEquals(200, secondAnswer.status(), secondAnswer.body());
            assertTrue(secondAnswer.body().contains(secondId), secondAnswer.body());
        }
    }

    @Test
    void aRequestNextInLineThatExpectsAContinueGetsIt(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of()); RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project = gateway.newProject("continued");
            String body = transaction(firstId);
            http.send("POST /api/v1/" + project.token() + "/transaction HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    + project.key() + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "
                    + body.length() + "\r\n\r\n");

            assertEquals(100, http.read().status());
            http.send(body);
            RawHttp.Response answer = http.read();
            assertEquals(200, answer.status(), answer.body());
            assertTrue(answer.body().contains(firstId), answer.body());
        }
    }

    @Test
    void aRequestOverItsProjectsQuotaIsRefusedFromItsHead(Engines engines) throws Exception {
        // A share of 0.001 makes the quota 1/s burst 1 into 0.001/s burst 1 here: once its one event is
        // taken, nothing refills for 1,000 s, however slowly the requests come.
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.001"));
             RawHttp http = new RawHttp(gateway.port())) {
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
                project = admin.create("limited", new Quota(1, 1));
            }
            gateway.awaitKnown(project);
            assertEquals(200, gateway.post(project, "transaction", transaction(null)).statusCode(), "the quota's one event");
            assertEquals(429, gateway.post(project, "transaction", transaction(null)).statusCode(), "the quota is used up");
            http.send("POST /api/v1/" + project.token() + "/transaction HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    + project.key() + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n");

            RawHttp.Response refused = http.read(); // without sending the body
            assertEquals(429, refused.status(), refused.body());
            assertTrue(refused.body().contains("\"quota_exceeded\""), refused.body());
            assertTrue(http.closedByServer(), "the announced body is never read");
        }
    }

    private static ConsumerRecord<byte[], byte[]> only(Engines engines, String topic, String eventId) {
        List<ConsumerRecord<byte[], byte[]>> found = KafkaRecords.find(engines, topic, 1, Duration.ofSeconds(10),
                KafkaRecords.withHeader(EventHeaders.EVENT_ID, eventId));
        assertEquals(1, found.size(), "records with event_id " + eventId + " in " + topic);
        return found.get(0);
    }

    private static String newEventId() {
        return java.util.UUID.randomUUID().toString().replace("-", "");
    }

    private static String transaction(String eventId) {
        return "{" + (eventId == null ? "" : "\"event_id\": \"" + eventId + "\", ") + "\"transaction\": \"GET /\"}";
    }

    private static String errorReport(String eventId) {
        return "{\"event_id\": \"" + eventId + "\", \"message\": \"boom\"}";
    }

    private static byte[] gzip(String json) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(json.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
