package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * A request holds in-flight bytes for what it has sent, not for what its head announces: a DSN
 * key is public (in every browser), and heads announcing envelopes that never come must not
 * leave other tenants, or the key's own project, with 503s.
 */
@ExtendWith(RealEngines.class)
@Timeout(120)
class BytesHeldAsReceivedIT {
    private static final int MIB = 1024 * 1024;
    private static final byte[] GOOD = "{}\n{\"type\":\"event\"}\n{\"message\":\"fine\"}\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void envelopesAnnouncedUnderPublicKeysButNeverSentLeaveEveryTenantServed(Engines engines) throws Exception {
        // The defaults (64 MiB in flight, 32 MiB envelopes, 32 MiB per project), but the heads are held
        // for a minute, not 10 s: the attacker would send them again every 10 s.
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_RECEIVE_TIMEOUT", "60s"))) {
            ProjectAdmin.NewProject victim = gateway.newProject("victim");
            ProjectAdmin.NewProject secondKey = gateway.newProject("second-key");
            ProjectAdmin.NewProject bystander = gateway.newProject("bystander");
            try (RawHttp first = new RawHttp(gateway.port(), "127.0.0.2"); RawHttp second = new RawHttp(gateway.port(), "127.0.0.3")) {
                first.send(envelopeHead(victim, 32 * MIB)); // and no body, ever
                second.send(envelopeHead(secondKey, 32 * MIB));
                assertEquals(2L, Await.until(Duration.ofSeconds(10), 2L, () -> gateway.gateway.metrics().inFlightRequests().get()),
                        "both heads are admitted: they may send their envelopes");

                List<String> answers = List.of(
                        "another project's envelope: " + envelope(gateway, bystander).statusCode(),
                        "the victim's server, with its private key: "
                                + gateway.post(victim, "transaction", "{\"transaction\":\"GET /\"}").statusCode(),
                        "the victim's browsers, with the same public key: " + envelope(gateway, victim).statusCode());
                assertEquals(List.of("another project's envelope: 200", "the victim's server, with its private key: 200",
                        "the victim's browsers, with the same public key: 200"), answers);

                assertEquals(2L, gateway.gateway.metrics().inFlightRequests().get(), "the announced envelopes are still awaited");
                assertEquals(0L, gateway.gateway.metrics().inFlightBytes().get(), "and hold nothing");
            }
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightRequests().get()));
        }
    }

    @Test
    void aKeyHoldsWhatItSentAtMostItsProjectsShareAndWhatNoLongerFitsGets503(Engines engines) throws Exception {
        // 8 MiB in flight, 4 MiB envelopes: each project may hold 4 MiB.
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_ENVELOPE_BYTES", Integer.toString(4 * MIB),
                "SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Integer.toString(8 * MIB), "SLUICE_GATEWAY_RECEIVE_TIMEOUT", "60s"))) {
            ProjectAdmin.NewProject hog = gateway.newProject("hog");
            ProjectAdmin.NewProject tenant = gateway.newProject("tenant");
            try (RawHttp holder = new RawHttp(gateway.port(), "127.0.0.2")) {
                holder.send(envelopeHead(hog, 4 * MIB));
                holder.sendBytes(new byte[3 * MIB]); // of 4 MiB announced
                assertEquals(3L * MIB, Await.until(Duration.ofSeconds(10), 3L * MIB, () -> gateway.gateway.metrics().inFlightBytes().get()),
                        "what has arrived is held");

                try (RawHttp announced = new RawHttp(gateway.port(), "127.0.0.3")) {
                    announced.send(envelopeHead(hog, 2 * MIB));
                    RawHttp.Response refused = announced.read();
                    assertEquals(503, refused.status(), "a declared size that cannot fit now is refused from the head: " + refused.body());
                    assertTrue(refused.body().startsWith("{\"error\":\"overloaded\""), refused.body());
                    assertTrue(announced.closedByServer());
                }
                try (RawHttp chunked = new RawHttp(gateway.port(), "127.0.0.4")) {
                    chunked.send("POST /api/" + hog.numericId() + "/envelope/ HTTP/1.1\r\nHost: localhost\r\n" + sentryAuth(hog)
                            + "Transfer-Encoding: chunked\r\n\r\n");
                    ByteArrayOutputStream chunks = new ByteArrayOutputStream();
                    for (int i = 0; i < 17; i++) { // 1 MiB and 64 KiB, more than the project has left
                        chunks.write(("10000\r\n" + "x".repeat(65536) + "\r\n").getBytes(StandardCharsets.UTF_8));
                    }
                    chunked.sendBytes(chunks.toByteArray());
                    RawHttp.Response refused = chunked.read();
                    assertEquals(503, refused.status(), "a body that grows beyond what is left: " + refused.body());
                    assertTrue(refused.body().startsWith("{\"error\":\"overloaded\""), refused.body());
                    assertEquals("1", chunked.header("Retry-After"));
                    assertTrue(chunked.closedByServer(), "the rest of the body is not read");
                }
                assertEquals(3L * MIB, Await.until(Duration.ofSeconds(10), 3L * MIB, () -> gateway.gateway.metrics().inFlightBytes().get()),
                        "the refused body gave back what it held");

                HttpResponse<String> served = envelope(gateway, tenant);
                assertEquals(200, served.statusCode(), served.body());
            }
            assertEquals(0L, Await.until(Duration.ofSeconds(10), 0L, () -> gateway.gateway.metrics().inFlightBytes().get()));
        }
    }

    private static String envelopeHead(ProjectAdmin.NewProject project, long contentLength) {
        return "POST /api/" + project.numericId() + "/envelope/ HTTP/1.1\r\nHost: localhost\r\n" + sentryAuth(project)
                + "Content-Length: " + contentLength + "\r\n\r\n";
    }

    private static String sentryAuth(ProjectAdmin.NewProject project) {
        return "X-Sentry-Auth: Sentry sentry_version=7, sentry_key=" + project.dsnKey().publicKey() + "\r\n";
    }

    private static HttpResponse<String> envelope(TestGateway gateway, ProjectAdmin.NewProject project) {
        return TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project))
                .POST(HttpRequest.BodyPublishers.ofByteArray(GOOD)).build());
    }
}
