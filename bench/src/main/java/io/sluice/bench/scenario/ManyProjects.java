package io.sluice.bench.scenario;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import io.sluice.bench.load.Payloads;
import io.sluice.bench.process.ChildJvm;
import io.sluice.bench.process.PrometheusText;
import io.sluice.bench.run.ResultFiles;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.engines.Directories;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;

/**
 * {@code ./sluice bench --projects[=N]}: writes N projects (a million by default) through
 * {@link ProjectAdmin#createAll}, then starts a gateway in a JVM of its own with a
 * {@value #GATEWAY_HEAP_MB} MiB heap, as a small container would run it, and reports how long it
 * took to become ready, its heap after a full GC and its peak RSS, and that the first and last
 * project's events are accepted. Kafka only: a gateway needs no ClickHouse.
 */
public final class ManyProjects {
    static final int GATEWAY_HEAP_MB = 256;
    private static final long MIB = 1024 * 1024;

    private final PrintStream out;
    private final int count;
    private final ResultFiles files;

    public ManyProjects(PrintStream out, int count, ResultFiles files) {
        this.out = out;
        this.count = count;
        this.files = files;
    }

    public void run() throws Exception {
        Path work = Files.createTempDirectory("sluice-bench-projects-");
        List<Integer> ports = Ports.free(4);
        try (KafkaBroker kafka = KafkaBroker.start(work.resolve("kafka"), ports.get(0), ports.get(1))) {
            Map<String, String> env = new HashMap<>(Map.of(KafkaSettings.BOOTSTRAP_SERVERS.name(), kafka.bootstrapServers()));
            KafkaSettings settings = KafkaSettings.from(Settings.fromEnvironment().with(env));
            TopicSetup.ensureTopics(settings);

            out.printf("· writing %,d projects through ProjectAdmin.createAll%n", count);
            long writeStart = System.nanoTime();
            List<ProjectAdmin.NewProject> created;
            try (ProjectAdmin admin = new ProjectAdmin(settings)) {
                created = admin.createAll(IntStream.range(0, count).mapToObj(i -> "project " + i).toList());
            }
            double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
            out.printf("  %,d projects written in %.1f s (%,.0f/s)%n", count, writeSeconds, count / writeSeconds);

            out.printf("· a gateway with -Xmx%dm (its own JVM, no -XX:+ExitOnOutOfMemoryError) loading them%n", GATEWAY_HEAP_MB);
            env.put(GatewayConfig.PORT.name(), Integer.toString(ports.get(2)));
            env.put(GatewayConfig.ADMIN_PORT.name(), Integer.toString(ports.get(3)));
            env.put("SLUICE_LOG_LEVELS", "io.sluice.projects=info"); // the registry's load: how long, how much heap
            long start = System.nanoTime();
            try (ChildJvm gateway = ChildJvm.start(GatewayMain.class, env, files.log("gateway-projects"), Optional.empty(), out,
                    GATEWAY_HEAP_MB)) {
                try {
                    gateway.awaitReady(ports.get(3));
                } catch (IllegalStateException e) {
                    throw new IllegalStateException("the gateway holding " + count + " projects in " + GATEWAY_HEAP_MB
                            + " MiB did not become ready within a minute (alive: " + gateway.isAlive() + "; log " + gateway.log() + ")", e);
                }
                double readySeconds = (System.nanoTime() - start) / 1e9;
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                int first = post(http, ports.get(2), created.get(0));
                int last = post(http, ports.get(2), created.get(count - 1));
                int unknown = post(http, ports.get(2), new ProjectAdmin.NewProject("unknown-token", "slk_unknown", "x"));
                String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get(3) + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                double peakHeap = PrometheusText.sum(metrics, "jvm_memory_used_bytes\\{area=\"heap\"[^}]*}");
                gateway.fullGc();
                metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get(3) + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                double heapAfterGc = PrometheusText.sum(metrics, "jvm_memory_used_bytes\\{area=\"heap\"[^}]*}");
                out.printf("· results: %,d projects%n", count);
                out.printf("  ready in %.1f s with -Xmx%dm; heap %.0f MiB after a full GC (%.0f MiB before it), %,.0f bytes a project "
                                + "all included; peak RSS %,d MiB%n", readySeconds, GATEWAY_HEAP_MB, heapAfterGc / MIB, peakHeap / MIB,
                        heapAfterGc / count, gateway.peakRssKb() / 1024);
                out.printf("  answers: first project %d, last project %d, unknown token %d%n", first, last, unknown);
                Files.readAllLines(gateway.log()).stream().filter(line -> line.contains("project registry loaded"))
                        .forEach(line -> out.println("  gateway: " + line.substring(line.indexOf("project registry loaded"))));
            }
        } finally {
            Directories.deleteRecursively(work);
        }
    }

    private static int post(HttpClient http, int port, ProjectAdmin.NewProject project) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/" + project.token() + "/transaction"))
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Payloads.transaction())).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
