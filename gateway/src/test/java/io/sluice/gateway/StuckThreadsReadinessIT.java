package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.gateway.http.ReadWorkers;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Issue 38, finding 8: a gateway whose event loop or read worker is held (a body that takes it for
 * 43 s) leaves rotation while it is, and says why. The test holds one itself, with limits of 2 s
 * (the defaults, 5 s and 10 s, would only make it slower; another reason may come and go
 * meanwhile on a loaded machine, so it waits for the one it causes): {@code /readyz} turns 503 with the reason,
 * and 200 again once the loop or the worker runs.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StuckThreadsReadinessIT {
    private static final Map<String, String> SHORT_LIMITS = Map.of("SLUICE_GATEWAY_IO_THREADS", "2",
            "SLUICE_GATEWAY_LOOP_LAG_LIMIT", "2s", "SLUICE_GATEWAY_READ_TURN_WAIT_LIMIT", "2s");

    @Test
    void aHeldEventLoopTurnsReadyzTo503WithItsReasonAndBackTo200OnceItRuns(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, SHORT_LIMITS)) {
            assertEquals(200, gateway.admin("/readyz").statusCode());
            CountDownLatch held = new CountDownLatch(1);
            try {
                gateway.gateway.eventLoops().iterator().next().execute(() -> awaitQuietly(held)); // event loop 1

                assertEquals(503, awaitReason(gateway, "\"event loop 1 is ").statusCode());
            } finally {
                held.countDown();
            }
            HttpResponse<String> ready = awaitReadyz(gateway, 200);
            assertTrue(!ready.body().contains("event loop"), ready.body());
        }
    }

    @Test
    void aHeldReadWorkerTurnsReadyzTo503WithItsReasonAndBackTo200OnceItRuns(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, SHORT_LIMITS)) {
            ProjectAdmin.NewProject project = gateway.newProject("waiting");
            assertEquals(200, gateway.admin("/readyz").statusCode());
            CountDownLatch held = new CountDownLatch(1);
            CompletableFuture<HttpResponse<String>> waiting;
            try {
                gateway.gateway.readWorkers().execute(new ReadWorkers.Read("the test", () -> awaitQuietly(held), () -> { }));
                assertEquals(200, awaitReadyz(gateway, 200).statusCode(), "nobody waits for the held worker yet");
                waiting = CompletableFuture.supplyAsync(() -> TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "")
                        .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project)).header("Content-Encoding", "gzip")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(smallGzipEnvelope())).build()));

                Await.until("the envelope waiting for the worker", Duration.ofSeconds(30), 1,
                        () -> gateway.gateway.readWorkers().waiting());

                assertEquals(503, awaitReason(gateway, "for its turn on the read workers").statusCode());
            } finally {
                held.countDown();
            }
            assertEquals(200, waiting.get(60, TimeUnit.SECONDS).statusCode());
            HttpResponse<String> ready = awaitReadyz(gateway, 200);
            assertTrue(!ready.body().contains("read workers"), ready.body());
        }
    }

    /** The first /readyz answer giving this reason (another may come and go first: the limits are short). */
    private static HttpResponse<String> awaitReason(TestGateway gateway, String reason) {
        return awaitReadyz(gateway, "giving " + reason, answer -> answer.body().contains(reason));
    }

    private static HttpResponse<String> awaitReadyz(TestGateway gateway, int status) {
        return awaitReadyz(gateway, Integer.toString(status), answer -> answer.statusCode() == status);
    }

    private static HttpResponse<String> awaitReadyz(TestGateway gateway, String what, Predicate<HttpResponse<String>> wanted) {
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        Await.until("/readyz " + what, Duration.ofSeconds(30), true, () -> {
            last.set(gateway.admin("/readyz"));
            return wanted.test(last.get());
        });
        return last.get();
    }

    private static byte[] smallGzipEnvelope() {
        try {
            return LargeEnvelopeNeighbourIT.gzip(("{}\n{\"type\":\"event\"}\n{\"message\":\"waits\"}\n").getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
