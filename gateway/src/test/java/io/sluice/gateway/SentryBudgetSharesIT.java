package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Bodies sent but never completed hold their bytes for the receive timeout: a DSN key (public in
 * browsers) holds at most its project's share of the in-flight budget, a stranger's dsn-only
 * envelope at most its address's share of the dsn-only budget, so the others are served.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SentryBudgetSharesIT {
    private static final int MAX_ENVELOPE_BYTES = 4 * 1024 * 1024;
    private static final byte[] GOOD = "{}\n{\"type\":\"event\"}\n{\"message\":\"fine\"}\n".getBytes(StandardCharsets.UTF_8);

    static TestGateway gateway;
    static ProjectAdmin.NewProject hog;
    static ProjectAdmin.NewProject tenant;
    static ProjectAdmin.NewProject secondHog;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        // 8 MiB in flight, 4 MiB envelopes: each project may hold 4 MiB (a quarter, but at least one envelope).
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_ENVELOPE_BYTES", Integer.toString(MAX_ENVELOPE_BYTES),
                "SLUICE_GATEWAY_MAX_IN_FLIGHT_BYTES", Integer.toString(2 * MAX_ENVELOPE_BYTES),
                "SLUICE_GATEWAY_MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES", "2097152",
                "SLUICE_GATEWAY_MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES_PER_CLIENT", "1048576"));
        hog = gateway.newProject("hog");
        tenant = gateway.newProject("tenant");
        secondHog = gateway.newProject("second-hog");
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static String head(ProjectAdmin.NewProject project, String auth, long length) {
        return "POST /api/" + project.numericId() + "/envelope/ HTTP/1.1\r\nHost: localhost\r\n" + auth
                + "Content-Length: " + length + "\r\n\r\n";
    }

    private static String sentryAuth(ProjectAdmin.NewProject project) {
        return "X-Sentry-Auth: Sentry sentry_version=7, sentry_key=" + project.dsnKey().publicKey() + "\r\n";
    }

    private static void awaitHeld(String gauge, long bytes) {
        Await.until(gauge + " " + bytes, Duration.ofSeconds(10), true,
                () -> gateway.admin("/metrics").body().contains("\n" + gauge + " " + bytes + ".0\n"));
    }

    @Test
    void aDsnKeyHoldingEnvelopesItSendsLeavesTheRestOfTheBudgetToOtherTenants() throws Exception {
        try (RawHttp first = new RawHttp(gateway.port()); RawHttp second = new RawHttp(gateway.port(), "127.0.0.2")) {
            first.send(head(hog, sentryAuth(hog), MAX_ENVELOPE_BYTES));
            first.sendBytes(new byte[MAX_ENVELOPE_BYTES - 1]); // all but its last byte
            awaitHeld("sluice_gateway_in_flight_bytes", MAX_ENVELOPE_BYTES - 1);
            second.send(head(hog, sentryAuth(hog), MAX_ENVELOPE_BYTES));
            RawHttp.Response refused = second.read();
            assertEquals(503, refused.status(), refused.body());
            assertTrue(refused.body().startsWith("{\"error\":\"overloaded\""), refused.body());

            HttpResponse<String> envelope = TestGateway.send(SentryEndpointsIT.envelope(gateway, tenant, "")
                    .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + tenant.dsnKey().publicKey())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(GOOD)).build());
            assertEquals(200, envelope.statusCode(), envelope.body());
            HttpResponse<String> v1 = gateway.post(tenant, "transaction", "{\"transaction\":\"GET /\"}");
            assertEquals(200, v1.statusCode(), v1.body());
        }
    }

    /** Each public DSN key may hold half of the budget: two used to hold all of it, and every other project got 503. */
    @Test
    void twoDsnKeysHoldingEnvelopesTheySendCannotStarveAThirdProject() throws Exception {
        try (RawHttp first = new RawHttp(gateway.port()); RawHttp second = new RawHttp(gateway.port(), "127.0.0.5")) {
            first.send(head(hog, sentryAuth(hog), MAX_ENVELOPE_BYTES));
            first.sendBytes(new byte[MAX_ENVELOPE_BYTES - 1]); // all but its last byte
            awaitHeld("sluice_gateway_in_flight_bytes", MAX_ENVELOPE_BYTES - 1);
            second.send(head(secondHog, sentryAuth(secondHog), MAX_ENVELOPE_BYTES));
            try {
                second.sendBytes(new byte[MAX_ENVELOPE_BYTES - 1]);
            } catch (java.io.IOException refusedAndClosed) {
                // the gateway answered and closed while the body was still being sent
            }
            HttpResponse<String> envelope = TestGateway.send(SentryEndpointsIT.envelope(gateway, tenant, "")
                    .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + tenant.dsnKey().publicKey())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(GOOD)).build());
            assertEquals(200, envelope.statusCode(), envelope.body());

            // The second key could take the budget only up to its reserve: the rest of its envelope was refused.
            RawHttp.Response refused = second.read();
            assertEquals(503, refused.status(), refused.body());
            assertTrue(refused.body().startsWith("{\"error\":\"overloaded\""), refused.body());
        }
    }

    @Test
    void aStrangerHoldsAtMostItsAddressShareOfTheDsnOnlyBudget() throws Exception {
        try (RawHttp stranger = new RawHttp(gateway.port(), "127.0.0.3"); RawHttp again = new RawHttp(gateway.port(), "127.0.0.3")) {
            again.send(head(tenant, "", 1048577));
            RawHttp.Response tooLarge = again.read();
            assertEquals(413, tooLarge.status(), tooLarge.body());

            stranger.send(head(tenant, "", 1048576));
            stranger.sendBytes(new byte[1048575]); // all but its last byte
            awaitHeld("sluice_gateway_unauthenticated_in_flight_bytes", 1048575);
            try (RawHttp more = new RawHttp(gateway.port(), "127.0.0.3")) {
                more.send(head(tenant, "", 1000));
                RawHttp.Response refused = more.read();
                assertEquals(503, refused.status(), refused.body());
            }
            String body = "{\"dsn\":\"" + "http://" + tenant.dsnKey().publicKey() + "@127.0.0.1:" + gateway.port() + "/" + tenant.numericId() + "\"}\n{\"type\":\"event\"}\n{\"message\":\"another address\"}\n";
            try (RawHttp other = new RawHttp(gateway.port(), "127.0.0.4")) {
                other.send(head(tenant, "", body.getBytes(StandardCharsets.UTF_8).length) + body);
                RawHttp.Response served = other.read();
                assertEquals(200, served.status(), served.body());
            }
        }
    }
}
