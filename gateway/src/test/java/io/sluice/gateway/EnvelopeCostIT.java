package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

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
 * What an envelope costs the gateway: each event item takes its event of the quota before its
 * payload is parsed; its items are read a slice per event-loop task, and still answered as a whole.
 */
@ExtendWith(RealEngines.class)
class EnvelopeCostIT {
    @Test
    @Timeout(120)
    void anEventItemOverQuotaIsNotParsed(Engines engines) throws Exception {
        // At a share of 0.01, a quota of 1/s burst 1 holds one event, for the head; then none for 100 s.
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_QUOTA_SHARE", "0.01"))) {
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), "sluice.projects")) {
                project = admin.create("stingy", new Quota(1, 1));
            }
            gateway.awaitKnown(project);
            // The second item is not JSON: read, it would make the whole envelope a 400.
            byte[] body = ("{}\n{\"type\":\"event\"}\n{\"event_id\":\"3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c\",\"message\":\"first\"}\n"
                    + "{\"type\":\"event\"}\n{this is not json\n").getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> response = TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                    .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("{\"id\":\"3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c\"}", response.body());
            assertTrue(response.headers().firstValue("X-Sentry-Rate-Limits").orElse("").endsWith(":transaction;error;session:project:quota_exceeded"),
                    response.headers().toString());
        }
    }

    /** Read a slice (256 KiB of events) per event-loop task, an envelope is still answered as a whole. */
    @Test
    @Timeout(120)
    void anEnvelopeReadInManySlicesIsPublishedWholeOrRefusedWhole(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of())) {
            ProjectAdmin.NewProject project = gateway.newProject("sliced");
            String padding = "x".repeat(100_000);
            StringBuilder whole = new StringBuilder("{}\n");
            for (int i = 0; i < 12; i++) { // 1.2 MB of events: five slices
                whole.append("{\"type\":\"event\"}\n{\"event_id\":\"").append(String.format("%032x", 0xd4d4_0000L + i))
                        .append("\",\"message\":\"").append(padding).append("\"}\n");
            }
            String refused = whole + "{\"type\":\"event\"}\n{\"message\": not json}\n"; // the last slice fails

            HttpResponse<String> invalid = post(gateway, project, refused);
            assertEquals(400, invalid.statusCode(), invalid.body());
            assertTrue(invalid.body().startsWith("{\"error\":\"invalid_json\""), invalid.body());
            HttpResponse<String> accepted = post(gateway, project, whole.toString());
            assertEquals(200, accepted.statusCode(), accepted.body());
            assertEquals("{\"id\":\"" + String.format("%032x", 0xd4d4_0000L) + "\"}", accepted.body());
            List<String> published = KafkaRecords.upToEnd(engines, "sluice.errors", Duration.ofSeconds(30),
                            r -> project.token().equals(new String(r.key(), StandardCharsets.UTF_8)))
                    .stream().map(r -> KafkaRecords.header(r, EventHeaders.EVENT_ID)).toList();
            assertEquals(IntStream.range(0, 12).mapToObj(i -> String.format("%032x", 0xd4d4_0000L + i)).sorted().toList(),
                    published.stream().sorted().toList(), "each of the accepted envelope's events once, none of the refused one's");
        }
    }

    private static HttpResponse<String> post(TestGateway gateway, ProjectAdmin.NewProject project, String body) {
        return TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
