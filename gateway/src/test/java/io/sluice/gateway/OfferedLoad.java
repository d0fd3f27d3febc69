package io.sluice.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToIntFunction;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.projects.ProjectAdmin;

/**
 * Sends one project's transactions at a steady rate, spread over gateways by weights that may
 * change while it runs (a balancer's view), and keeps every answer with the time its request left.
 */
final class OfferedLoad implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRANSACTION = "{\"transaction\": \"GET /quota\", \"tags\": {\"http.status_code\": 200}}";
    private static final long TICK_MILLIS = 25;

    /** One answer: when its request left (since the load began), through which gateway, its status and the id of a 200. */
    record Answer(long sentMillis, int gateway, int status, String id) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final ConcurrentLinkedQueue<CompletableFuture<Answer>> answers = new ConcurrentLinkedQueue<>();
    private final AtomicReference<double[]> weights = new AtomicReference<>();
    private final List<TestGateway> gateways;
    private final ProjectAdmin.NewProject project;
    private final double[] credit;
    private final long startNanos = System.nanoTime();

    /** Starts sending {@code perSecond} requests a second, split over {@code gateways} by {@code weights}. */
    OfferedLoad(List<TestGateway> gateways, ProjectAdmin.NewProject project, int perSecond, double... weights) {
        this.gateways = gateways;
        this.project = project;
        this.credit = new double[gateways.size()];
        this.weights.set(weights.clone());
        double perTick = perSecond * TICK_MILLIS / 1000.0;
        ticker.scheduleAtFixedRate(() -> tick(perTick), 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** From now on, requests go to the gateways by these weights. */
    void shift(double... newWeights) {
        weights.set(newWeights.clone());
    }

    long elapsedMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private void tick(double perTick) {
        double[] now = weights.get();
        double sum = 0;
        for (double w : now) {
            sum += w;
        }
        for (int i = 0; i < credit.length; i++) {
            credit[i] += perTick * now[i] / sum;
            while (credit[i] >= 1) {
                credit[i] -= 1;
                answers.add(send(i));
            }
        }
    }

    private CompletableFuture<Answer> send(int gateway) {
        long sent = elapsedMillis();
        HttpRequest request = gateways.get(gateway).request(project.token(), "transaction")
                .header("Authorization", "Bearer " + project.key()).POST(HttpRequest.BodyPublishers.ofString(TRANSACTION)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> new Answer(sent, gateway, response.statusCode(), idOf(response)))
                .exceptionally(error -> new Answer(sent, gateway, -1, null));
    }

    private static String idOf(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            return null;
        }
        try {
            return JSON.readTree(response.body()).path("id").asText();
        } catch (Exception e) {
            return null;
        }
    }

    /** Stops sending and returns every answer (waiting for those under way). */
    List<Answer> stop() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return answers.stream().map(CompletableFuture::join).toList();
    }

    /** Events per second among those the gateways received within [from, to) (epoch ms). */
    static double perSecond(List<Long> receivedAt, long fromMillis, long toMillis) {
        long admitted = receivedAt.stream().filter(t -> t >= fromMillis && t < toMillis).count();
        return admitted * 1000.0 / (toMillis - fromMillis);
    }

    static long count(List<Answer> answers, ToIntFunction<Answer> what, int value) {
        return answers.stream().filter(a -> what.applyAsInt(a) == value).count();
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
