package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.gateway.publish.PublishHealth;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/** Envelopes that lie about themselves get a clear 4xx, and the next request is served. */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SentryHostileEnvelopesIT {
    private static final int MAX_ENVELOPE_BYTES = 4 * 1024 * 1024;
    private static final byte[] GOOD = "{}\n{\"type\":\"event\"}\n{\"message\":\"fine\"}\n".getBytes(StandardCharsets.UTF_8);

    static TestGateway gateway;
    static ProjectAdmin.NewProject project;

    @BeforeAll
    static void start(Engines engines) throws Exception {
        gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_MAX_ENVELOPE_BYTES", Integer.toString(MAX_ENVELOPE_BYTES),
                "SLUICE_GATEWAY_MAX_UNAUTHENTICATED_IN_FLIGHT_BYTES", "65536"));
        project = gateway.newProject("hostile");
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static HttpRequest.Builder envelope() {
        return SentryEndpointsIT.envelope(gateway, project, "").header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key="
                + project.dsnKey().publicKey());
    }

    private static HttpResponse<String> send(String body) {
        return send(body.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static HttpResponse<String> send(byte[] body) {
        return TestGateway.send(envelope().POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** The answer's status and error code, then a good envelope is still taken. */
    private static void assertRefused(int status, String error, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"error\":\"" + error + "\""), response.body());
        HttpResponse<String> next = send(GOOD);
        assertEquals(200, next.statusCode(), next.body());
    }

    @Test
    void aLengthLongerThanThePayloadIs400() {
        assertRefused(400, "invalid_envelope", send("{}\n{\"type\":\"event\",\"length\":500}\n{\"message\":\"x\"}\n"));
    }

    @Test
    void aLengthShorterThanThePayloadIs400() {
        assertRefused(400, "invalid_envelope", send("{}\n{\"type\":\"event\",\"length\":5}\n{\"message\":\"x\"}\n"));
    }

    @Test
    void tenThousandItemsAre400() {
        StringBuilder body = new StringBuilder("{}\n");
        for (int i = 0; i < 10_000; i++) {
            body.append("{\"type\":\"log\"}\n{}\n");
        }
        assertRefused(400, "invalid_envelope", send(body.toString()));
    }

    @Test
    void anItemHeaderThatIsNotJsonIs400() {
        assertRefused(400, "invalid_envelope", send("{}\n{\"type\":\"event\"}\n{\"message\":\"x\"}\n{type: event}\n{}\n"));
    }

    @Test
    void anEventItemWithAnEmptyPayloadAtTheVeryEndIs400() {
        assertRefused(400, "invalid_json", send("{\"event_id\":\"0123456789abcdef0123456789abcdef\"}\n{\"type\":\"event\"}"));
    }

    @Test
    void anEventPayloadThatIsANumberOrAnArrayIs400() {
        String head = "{\"event_id\":\"0123456789abcdef0123456789abcdef\"}\n{\"type\":\"event\"}\n";
        assertRefused(400, "invalid_json", send(head + "42\n"));
        assertRefused(400, "invalid_json", send(head + "[1]\n"));
    }

    @Test
    void anEventWhoseEventIdIsNullIsNotGivenASecondOne() {
        HttpResponse<String> response = send("{\"event_id\":\"0123456789abcdef0123456789abcdef\"}\n{\"type\":\"event\"}\n"
                + "{\"event_id\":null,\"message\":\"x\"}\n");
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void aLengthBeyondALongIs400() {
        assertRefused(400, "invalid_envelope", send("{}\n{\"type\":\"log\",\"length\":18446744073709551621}\nxxxxx\n"));
    }

    @Test
    void anEnvelopeNestedAsAnEventPayloadIsNotAnEvent() {
        String inner = "{\"event_id\":\"0123456789abcdef0123456789abcdef\"}\n{\"type\":\"event\"}\n{\"message\":\"x\"}";
        assertRefused(400, "invalid_json", send("{}\n{\"type\":\"event\",\"length\":" + inner.length() + "}\n" + inner + "\n"));
    }

    @Test
    void anEnvelopeNestedAsAnItemOfItsOwnTypeIsAcceptedAndNotStored() {
        String inner = "{}\n{\"type\":\"event\"}\n{\"message\":\"x\"}";
        HttpResponse<String> response = send("{}\n{\"type\":\"envelope\",\"length\":" + inner.length() + "}\n" + inner + "\n");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{}", response.body());
    }

    @Test
    void aMissingFinalNewlineIsAccepted() {
        HttpResponse<String> response = send("{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n{\"type\":\"event\"}\n{\"message\":\"x\"}");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}", response.body());
    }

    @Test
    void anEventItemOfOneMebibytePlusOneIs413() {
        String payload = "{\"message\":\"" + "x".repeat(1024 * 1024 + 1 - 14) + "\"}";
        assertEquals(1024 * 1024 + 1, payload.length());
        assertRefused(413, "body_too_large", send("{}\n{\"type\":\"event\",\"length\":" + payload.length() + "}\n" + payload + "\n"));
    }

    /**
     * A session item is bounded as an event item is: refused 413 by the gateway, never handed to
     * Kafka, whose refusal of a record too large would count as Kafka failing and take the gateway
     * out of rotation after a few requests.
     */
    @Test
    void aSessionItemOfTwoMebibytesIs413AndLeavesTheGatewayReady() {
        String session = "{\"sid\":\"5a5a5a5a5a5a4a5a8a5a5a5a5a5a5a5b\",\"init\":true,\"started\":\"2026-12-07T09:00:00Z\","
                + "\"attrs\":{\"release\":\"r@1\"},\"padding\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        for (int i = 0; i < PublishHealth.MIN_FAILURES + 1; i++) {
            assertRefused(413, "body_too_large", send("{}\n{\"type\":\"session\"}\n" + session + "\n"));
        }
        assertEquals(200, gateway.admin("/readyz").statusCode(), gateway.admin("/readyz").body());
    }

    @Test
    void anAttachmentBeyondOneMebibyteIsReadAndDropped() {
        String attachment = "a".repeat(2 * 1024 * 1024);
        HttpResponse<String> response = send("{}\n{\"type\":\"attachment\",\"length\":" + attachment.length() + "}\n" + attachment
                + "\n{\"type\":\"event\"}\n{\"message\":\"with an attachment\"}\n");
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void anEnvelopeBeyondTheEnvelopeLimitIs413() {
        assertRefused(413, "body_too_large", send(new byte[MAX_ENVELOPE_BYTES + 1]));
    }

    @Test
    void anEnvelopeWithOnlyItsDsnMayNotBeLargerThanTheUnauthenticatedBudget() {
        HttpResponse<String> response = TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[65537])).build());
        assertEquals(413, response.statusCode(), response.body());
        assertTrue(response.body().contains("only credential is its dsn header"), response.body());
    }

    @Test
    void aDsnOnlyGzipEnvelopeDecompressingBeyondWhatItMayEverHoldIs413() throws Exception {
        String body = "{\"dsn\":\"" + "http://" + project.dsnKey().publicKey() + "@127.0.0.1:" + gateway.port() + "/" + project.numericId()
                + "\"}\n{\"type\":\"attachment\",\"length\":100000}\n" + "a".repeat(100_000) + "\n";
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(out)) {
            gzip.write(body.getBytes(StandardCharsets.UTF_8));
        }
        HttpResponse<String> response = TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())).build());
        assertRefused(413, "body_too_large", response);
    }

    @Test
    void strangersHoldingTheUnauthenticatedBudgetTakeNothingFromTheTenants() throws Exception {
        try (RawHttp stranger = new RawHttp(gateway.port())) {
            // No credential but the (incomplete) body's dsn: it holds the 60000 bytes it sent while its last never comes.
            stranger.send("POST /api/" + project.numericId() + "/envelope/ HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Length: 60001\r\n\r\n" + "x".repeat(60000));
            io.sluice.testkit.Await.until("the stranger's reservation", java.time.Duration.ofSeconds(10), true,
                    () -> gateway.admin("/metrics").body().contains("\nsluice_gateway_unauthenticated_in_flight_bytes 60000.0\n"));
            HttpResponse<String> another = TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[10_000])).build());
            assertEquals(503, another.statusCode(), another.body());
            assertTrue(another.body().startsWith("{\"error\":\"overloaded\""), another.body());
            HttpResponse<String> tenant = send(GOOD);
            assertEquals(200, tenant.statusCode(), tenant.body());
        }
    }

    @Test
    void aV1BodyWithoutDeclaredSizeIsStillHeldToTheV1Limit() {
        byte[] big = ("{\"transaction\":\"GET /\",\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = TestGateway.send(gateway.request(project.token(), "transaction")
                .header("Authorization", "Bearer " + project.key())
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build());
        assertEquals(413, response.statusCode(), response.body());
        assertEquals("{\"error\":\"body_too_large\",\"message\":\"the request body is larger than 1048576 bytes\"}", response.body());
    }
}
