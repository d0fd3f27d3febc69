package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.sluice.events.ErrorFields;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** Payloads as real Sentry SDKs send them are accepted unchanged, each on its endpoint, plain and gzip. */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SdkPayloadsIT {
    static final Path PAYLOADS = Path.of("src/test/resources/sdk-payloads");

    static TestGateway gateway;
    static ProjectAdmin.NewProject project;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        gateway = TestGateway.start(engines, Map.of());
        project = gateway.newProject("sdks");
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    static Stream<String> payloads() throws IOException {
        try (Stream<Path> files = Files.list(PAYLOADS)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList().stream();
        }
    }

    @org.junit.jupiter.api.Test
    void mutatedPayloadsGetAJsonAnswerAndTheGatewayStaysHealthy() throws Exception {
        java.util.Random random = new java.util.Random(7);
        java.util.List<String> files = payloads().toList();
        for (int i = 0; i < 300; i++) {
            String file = files.get(random.nextInt(files.size()));
            byte[] body = io.sluice.gateway.validate.Mutator.mutate(Files.readAllBytes(PAYLOADS.resolve(file)), random);
            HttpResponse<String> response = gateway.postBytes(project, file.contains("-transaction") ? "transaction" : "project", body);
            org.junit.jupiter.api.Assertions.assertTrue(response.statusCode() == 200
                    || (response.statusCode() >= 400 && response.statusCode() < 500 && response.body().startsWith("{\"error\":")),
                    response.statusCode() + " " + response.body());
        }
        assertEquals(200, gateway.post(project, "transaction", "{\"transaction\": \"GET /\"}").statusCode());
        assertEquals(200, gateway.admin("/healthz").statusCode());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("payloads")
    void isAcceptedOnItsEndpoint(String file) throws Exception {
        String endpoint = file.contains("-transaction") ? "transaction" : "project";
        byte[] body = Files.readAllBytes(PAYLOADS.resolve(file));
        HttpResponse<String> plain = gateway.postBytes(project, endpoint, body);
        assertEquals(200, plain.statusCode(), plain.body());
        HttpResponse<String> gzip = gateway.postBytes(project, endpoint, IngestContractIT.gzip(new String(body, "UTF-8")),
                "Content-Encoding", "gzip");
        assertEquals(200, gzip.statusCode(), gzip.body());
    }

    /** What sentry-cli send-event showed missing: the logentry formatted with its params, and the level Sentry gives an event without one. */
    @org.junit.jupiter.api.Test
    void sentryClisEventIsReadAsSentryStoresIt() throws Exception {
        String event = Files.readString(PAYLOADS.resolve("sentry-cli-event.json"));
        ErrorFields asSent = publishedErrorFields(event.replace("f07dc02c9f3c49e748f72035e4fd0c2b", "c11c11c11c11c11c11c11c11c11c11c1"),
                "c11c11c11c11c11c11c11c11c11c11c1");
        assertEquals("Deploy of shop@2.14.0 finished", asSent.exceptionValue());
        assertEquals("info", asSent.level());
        ErrorFields noLevel = publishedErrorFields(event.replace("f07dc02c9f3c49e748f72035e4fd0c2b", "c22c22c22c22c22c22c22c22c22c22c2")
                .replace("\"level\": \"info\", ", ""), "c22c22c22c22c22c22c22c22c22c22c2");
        assertEquals("error", noLevel.level());
    }

    private static ErrorFields publishedErrorFields(String json, String eventId) {
        assertEquals(200, gateway.post(project, "project", json).statusCode());
        java.util.List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> records = io.sluice.testkit.KafkaRecords.find(
                gateway.engines, "sluice.errors", 1, java.time.Duration.ofSeconds(15),
                io.sluice.testkit.KafkaRecords.withHeader(io.sluice.events.EventHeaders.EVENT_ID, eventId));
        assertEquals(1, records.size());
        return ErrorFields.fromHeader(records.get(0).headers());
    }
}
