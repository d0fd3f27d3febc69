package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** What an envelope costs the gateway: each event item takes its event of the quota before its payload is parsed. */
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
            assertTrue(response.headers().firstValue("X-Sentry-Rate-Limits").orElse("").endsWith(":error;transaction:project:quota_exceeded"),
                    response.headers().toString());
        }
    }
}
