package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * What becomes of the bodies on the read workers when the gateway shuts down. One event loop, so
 * one read worker: it reads a 16 MB gzip envelope (sixteen error events of 1 MB) while a tenant's
 * 300 KB event, also read on a worker, waits behind it; then the gateway closes. Within the drain
 * timeout both are read, published and answered 200; past it both are answered 503 shutting_down
 * (the waiting one unread, the one being read at its next item), and what they held is given back.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BodiesOnReadWorkersAtShutdownIT {
    private static final String EVENT_ID = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";

    @Test
    void aBodyWaitingForAReadWorkerWhenTheGatewayStopsIsReadPublishedAndAnsweredWithinTheDrainTimeout(Engines engines)
            throws Exception {
        // A long drain: the envelope alone may take several seconds on a busy machine.
        OnTheWorker requests = OnTheWorker.send(engines, "120s");

        Thread closing = new Thread(requests.gateway()::close, "closing-gateway");
        closing.start();

        HttpResponse<String> waited = requests.waiting().get(60, TimeUnit.SECONDS);
        assertEquals(200, waited.statusCode(), waited.body());
        assertEquals("{\"id\":\"" + EVENT_ID + "\"}", waited.body());
        HttpResponse<String> read = requests.reading().get(60, TimeUnit.SECONDS);
        assertEquals(200, read.statusCode(), read.body());
        closing.join(60_000);
        assertTrue(!closing.isAlive(), "close() returned once both were answered");
    }

    @Test
    void pastTheDrainTimeoutTheBodiesOnTheReadWorkerGiveBackTheirReservationsAndGet503ShuttingDown(Engines engines)
            throws Exception {
        OnTheWorker requests = OnTheWorker.send(engines, "0s");
        TestGateway gateway = requests.gateway();

        long start = System.nanoTime();
        gateway.close(); // the drain timeout passes at once: the worker is reading the envelope, the event waits
        System.out.println("closed in " + (System.nanoTime() - start) / 1_000_000 + " ms with a 16 MB envelope being read "
                + "and a 300 KB event waiting for the read worker, shutdown timeout 0 s");
        assertEquals(0L, gateway.gateway.metrics().inFlightBytes().get(), "the in-flight budget is all given back");
        assertEquals(0L, gateway.gateway.metrics().inFlightRequests().get());

        HttpResponse<String> waited = requests.waiting().get(30, TimeUnit.SECONDS);
        assertEquals(503, waited.statusCode(), waited.body());
        assertEquals("shutting_down", errorCode(waited));
        assertEquals("1", waited.headers().firstValue("Retry-After").orElse(""));
        HttpResponse<String> read = requests.reading().get(30, TimeUnit.SECONDS);
        assertEquals(503, read.statusCode(), read.body());
        assertEquals("shutting_down", errorCode(read));
        assertEquals("1", read.headers().firstValue("Retry-After").orElse(""));
    }

    /** A gateway with one read worker, the envelope it is reading, and the tenant's event waiting for it. */
    private record OnTheWorker(TestGateway gateway, CompletableFuture<HttpResponse<String>> reading,
                               CompletableFuture<HttpResponse<String>> waiting) {
        static OnTheWorker send(Engines engines, String shutdownTimeout) throws Exception {
            TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_IO_THREADS", "1", // one loop, one read worker
                    "SLUICE_GATEWAY_SHUTDOWN_TIMEOUT", shutdownTimeout));
            ProjectAdmin.NewProject sender;
            try (ProjectAdmin admin = new ProjectAdmin(gateway.engines.kafkaBootstrapServers(), "sluice.projects")) {
                sender = admin.create("large-envelopes", new Quota(1_000, 10_000));
            }
            gateway.awaitKnown(sender);
            ProjectAdmin.NewProject tenant = gateway.newProject("tenant");
            byte[] envelope = LargeEnvelopeNeighbourIT.gzip(envelopeOfSixteenMegabytes());
            String event = "{\"event_id\": \"" + EVENT_ID + "\", \"message\": \"boom\", \"extra\": {\"padding\": \""
                    + "x".repeat(300_000) + "\"}}"; // larger than 256 KiB: read on a worker

            CompletableFuture<HttpResponse<String>> reading = CompletableFuture.supplyAsync(() -> TestGateway.send(
                    SentryEndpointsIT.envelope(gateway, sender, "").header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(sender))
                            .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofByteArray(envelope)).build()));
            Await.until("the envelope received (and handed to the one worker)", Duration.ofSeconds(30), true,
                    () -> received(gateway, "envelope"));
            CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(
                    () -> gateway.post(tenant, "project", event));
            Await.until("the event received (and queued behind the envelope)", Duration.ofSeconds(30), true,
                    () -> received(gateway, "project"));
            return new OnTheWorker(gateway, reading, waiting);
        }
    }

    /** Whether the gateway received a whole body on this endpoint: it then hands it on at once. */
    private static boolean received(TestGateway gateway, String endpoint) {
        return gateway.gateway.metrics().prometheusText().contains("sluice_gateway_received_bytes_total{endpoint=\"" + endpoint + "\"}");
    }

    /** Sixteen error events of about 1 MB each: two of LargeEnvelopeNeighbourIT's envelopes under one header. */
    private static byte[] envelopeOfSixteenMegabytes() {
        byte[] eight = LargeEnvelopeNeighbourIT.envelopeOfEightMegabytes();
        ByteArrayOutputStream sixteen = new ByteArrayOutputStream();
        sixteen.writeBytes(eight);
        int header = "{}\n".length();
        sixteen.write(eight, header, eight.length - header);
        return sixteen.toByteArray();
    }

    private static String errorCode(HttpResponse<String> response) {
        try {
            return new ObjectMapper().readTree(response.body()).path("error").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }
}
