package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.gateway.http.ReadWorkers;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;

/**
 * Issue 38, finding 5: one project within its quota must not hold the read workers. One event loop,
 * so one read worker; a project sends six 8 MB gzip envelopes at once (each takes the worker about
 * half a second), then another project sends a small gzip envelope of one event (compressed: read on the
 * worker too); the worker is held by the test while they arrive, so all wait in the order sent. The
 * workers take the projects in turn: the other project's event is read after the first envelope,
 * not after all six.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FairReadWorkersIT {
    private static final int ENVELOPES = 6;

    @Test
    void anotherProjectsSmallCompressedEnvelopeWaitsForOneEnvelopeOfAFloodingProjectNotForAllOfThem(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_GATEWAY_IO_THREADS", "1"))) {
            ProjectAdmin.NewProject flooding;
            try (ProjectAdmin admin = gateway.projects()) {
                flooding = admin.create("flooding", new Quota(1_000, 10_000));
            }
            gateway.awaitKnown(flooding);
            ProjectAdmin.NewProject other = gateway.newProject("other");
            byte[] envelope = LargeEnvelopeNeighbourIT.gzip(LargeEnvelopeNeighbourIT.envelopeOfEightMegabytes());
            byte[] small = LargeEnvelopeNeighbourIT.gzip(("{}\n{\"type\":\"event\"}\n"
                    + "{\"event_id\": \"d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0\", \"message\": \"boom\"}\n").getBytes(StandardCharsets.UTF_8));

            ExecutorService clients = Executors.newFixedThreadPool(ENVELOPES + 1);
            CountDownLatch held = new CountDownLatch(1);
            try {
                // The worker is held while the requests arrive, so that all wait for it in the order sent.
                gateway.gateway.readWorkers().execute(new ReadWorkers.Read("the test", () -> awaitQuietly(held), () -> { }));
                List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
                for (int i = 0; i < ENVELOPES; i++) {
                    flood.add(CompletableFuture.supplyAsync(() -> postGzipEnvelope(gateway, flooding, envelope), clients));
                }
                Await.until("the envelopes waiting for the read worker", Duration.ofSeconds(60), ENVELOPES,
                        () -> gateway.gateway.readWorkers().waiting());
                CompletableFuture<HttpResponse<String>> others = CompletableFuture.supplyAsync(
                        () -> postGzipEnvelope(gateway, other, small), clients);
                Await.until("the other project's envelope waiting behind them", Duration.ofSeconds(60), ENVELOPES + 1,
                        () -> gateway.gateway.readWorkers().waiting());

                long start = System.nanoTime();
                held.countDown();
                HttpResponse<String> answer = others.get(120, TimeUnit.SECONDS);
                long millis = (System.nanoTime() - start) / 1_000_000;
                long floodAnsweredFirst = flood.stream().filter(CompletableFuture::isDone).count();

                assertEquals(200, answer.statusCode(), answer.body());
                for (CompletableFuture<HttpResponse<String>> flooded : flood) {
                    assertEquals(200, flooded.get(120, TimeUnit.SECONDS).statusCode());
                }
                long floodMillis = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("the other project's small gzip envelope answered in %d ms, after %d of the %d envelopes (all %d answered "
                        + "in %d ms)%n", millis, floodAnsweredFirst, ENVELOPES, ENVELOPES, floodMillis);
                // Its turn comes after the envelope taken before it (answered first or not, as its publish goes): not after all.
                assertTrue(floodAnsweredFirst <= 1, "the other project's envelope waited for " + floodAnsweredFirst + " of the "
                        + ENVELOPES + " envelopes (answered in " + millis + " ms)");
            } finally {
                held.countDown();
                clients.shutdownNow();
            }
        }
    }

    private static HttpResponse<String> postGzipEnvelope(TestGateway gateway, ProjectAdmin.NewProject project, byte[] gzipped) {
        return TestGateway.send(SentryEndpointsIT.envelope(gateway, project, "").timeout(Duration.ofSeconds(120))
                .header("X-Sentry-Auth", SentryEndpointsIT.sentryAuth(project)).header("Content-Encoding", "gzip")
                .POST(HttpRequest.BodyPublishers.ofByteArray(gzipped)).build());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
