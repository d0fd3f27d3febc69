package io.sluice.bench.scenario;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPOutputStream;

import org.apache.kafka.common.utils.Utils;

import io.sluice.bench.load.Payloads;
import io.sluice.bench.process.ChildJvm;
import io.sluice.bench.process.PrometheusText;
import io.sluice.bench.run.ResultFiles;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.engines.Directories;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;

/**
 * {@code ./sluice bench --soak[=10m]}: the gateway in its own JVM (the bench's 512 MiB heap) under
 * every attack at once, for minutes — strangers pipelining CORS preflights who never read an
 * answer, slow uploads, envelope bombs (a 29 KiB gzip that is 28 MiB of JSON), events whose ids are
 * aimed at one partition, and OTLP exports that cost most to decode ({@link OtlpAttacks}: a number
 * with a huge negative exponent, a gzipped export of millions of unknown protobuf fields, 10,000-span
 * exports from a project with a quota) — while an ordinary tenant sends steadily, every other event
 * gzipped so that it shares the read workers with the exports. At the end it
 * prints the tenant's success rate and p99 and the gateway's heap (after a full GC) and direct
 * memory, and checks them against {@link #BOUNDS}: a failed bound fails the command.
 */
public final class Soak {
    /** What the run must stay within. */
    record Bounds(double minSuccess, double maxP99Millis, long maxHeapAfterGcMb, long maxDirectMb, long maxUnsentAnswersMb) {
    }

    static final Bounds BOUNDS = new Bounds(0.999, 2_000, 128, 192, 16);
    private static final int TENANT_EVENTS_PER_SECOND = 40;
    private static final int TENANT_SENDERS = 4;
    private static final int STRANGERS = 32;
    private static final int SLOW_UPLOADS = 32;
    private static final int BOMBERS = 2;
    private static final int AIMED_EVENTS_PER_SECOND = 100;
    private static final int PARTITIONS = 4;
    private static final int EXPORTERS = 2;
    private static final int EXPORT_SPANS = 10_000;
    /** The exporting project's quota: one 10,000-span export every two seconds; the rest is over it. */
    private static final Quota EXPORTER_QUOTA = new Quota(5_000, 10_000);
    private static final long MIB = 1024 * 1024;
    private static final String PREFLIGHT = "OPTIONS /api/%d/envelope/ HTTP/1.1\r\nHost: gateway\r\nOrigin: https://shop.example\r\n"
            + "Access-Control-Request-Method: POST\r\n\r\n";

    private final PrintStream out;
    private final Duration duration;
    private final ResultFiles files;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public Soak(PrintStream out, Duration duration, ResultFiles files) {
        this.out = out;
        this.duration = duration;
        this.files = files;
    }

    public void run() throws Exception {
        Path work = Files.createTempDirectory("sluice-soak-");
        List<Integer> ports = Ports.free(4);
        out.println("· soak for " + duration.toMinutes() + " min; logs in " + files.log());
        try (KafkaBroker kafka = KafkaBroker.start(work.resolve("kafka"), ports.get(0), ports.get(1))) {
            Map<String, String> env = new HashMap<>();
            env.put(KafkaSettings.BOOTSTRAP_SERVERS.name(), kafka.bootstrapServers());
            env.put(Topics.PARTITIONS.name(), Integer.toString(PARTITIONS));
            env.put(GatewayConfig.PORT.name(), Integer.toString(ports.get(2)));
            env.put(GatewayConfig.ADMIN_PORT.name(), Integer.toString(ports.get(3)));
            KafkaSettings settings = KafkaSettings.from(Settings.fromEnvironment().with(env));
            TopicSetup.ensureTopics(settings);
            ProjectAdmin.NewProject tenant;
            ProjectAdmin.NewProject attacker;
            ProjectAdmin.NewProject exporter;
            try (ProjectAdmin admin = new ProjectAdmin(settings)) {
                tenant = admin.create("tenant");
                attacker = admin.create("attacker");
                exporter = admin.create("exporter", EXPORTER_QUOTA);
            }
            try (ChildJvm gateway = ChildJvm.start(GatewayMain.class, env, files.log("soak-gateway"), Optional.empty(), out)) {
                gateway.awaitReady(ports.get(3));
                run(gateway, "http://127.0.0.1:" + ports.get(2), "http://127.0.0.1:" + ports.get(3), tenant, attacker, exporter);
            }
        } finally {
            Directories.deleteRecursively(work);
        }
    }

    private void run(ChildJvm gateway, String base, String admin, ProjectAdmin.NewProject tenant, ProjectAdmin.NewProject attacker,
                     ProjectAdmin.NewProject exporter) throws Exception {
        int port = URI.create(base).getPort();
        long attackerId = Project.numericIdOf(attacker.token());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < STRANGERS; i++) {
            threads.add(start("stranger-" + i, () -> neverRead(port, PREFLIGHT.formatted(attackerId))));
        }
        for (int i = 0; i < SLOW_UPLOADS; i++) {
            threads.add(start("slow-" + i, () -> slowUpload(port, attacker)));
        }
        byte[] bomb = envelopeBomb();
        out.printf("  the envelope bomb: %,d bytes of gzip%n", bomb.length);
        for (int i = 0; i < BOMBERS; i++) {
            threads.add(start("bomber-" + i, () -> bomb(base, attackerId, attacker.dsnKey().publicKey(), bomb)));
        }
        threads.add(start("aimed-ids", () -> aimedIds(base, attacker)));
        byte[] exponent = OtlpAttacks.negativeExponent();
        threads.add(start("otlp-exponent", () -> count("otlp exponent " + status(otlp(base, attacker, "application/json", false, exponent)))));
        byte[] unknownFields = gzip(OtlpAttacks.unknownFields(3, 1_000_000));
        byte[] export = gzip(OtlpAttacks.largeJsonExport(EXPORT_SPANS));
        out.printf("  OTLP: %,d bytes of gzip for 3 spans of a million unknown fields, %,d for %,d spans of JSON%n",
                unknownFields.length, export.length, EXPORT_SPANS);
        threads.add(start("otlp-unknown-fields", () -> count("otlp unknown fields "
                + status(otlp(base, attacker, "application/x-protobuf", true, unknownFields)))));
        for (int i = 0; i < EXPORTERS; i++) {
            threads.add(start("otlp-exporter-" + i, () -> count("otlp export " + status(otlp(base, exporter, "application/json", true, export)))));
        }
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicLong tenantOk = new AtomicLong();
        AtomicLong tenantSent = new AtomicLong();
        for (int i = 0; i < TENANT_SENDERS; i++) {
            threads.add(start("tenant-" + i, () -> tenant(base, tenant, latencies, tenantOk, tenantSent)));
        }

        long end = System.nanoTime() + duration.toNanos();
        Map<String, Double> peaks = new HashMap<>();
        long nextReport = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < end && gateway.isAlive()) {
            Thread.sleep(5_000);
            Map<String, Double> now = gatewayMemory(admin);
            now.forEach((name, value) -> peaks.merge(name, value, Math::max));
            if (System.nanoTime() >= nextReport) {
                nextReport += TimeUnit.MINUTES.toNanos(1);
                out.printf("  %s: tenant %,d/%,d ok; heap used %,.0f MiB, direct %,.0f MiB, unsent answers %,.0f KiB, "
                                + "open connections %,.0f; attackers %s%n", elapsed(end), tenantOk.get(), tenantSent.get(),
                        now.get("heap") / MIB, now.get("direct") / MIB, now.get("unsent") / 1024, now.get("connections"), counts);
            }
        }
        boolean alive = gateway.isAlive();
        Map<String, Double> last = alive ? gatewayMemory(admin) : Map.of();
        running.set(false);
        synchronized (sockets) {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
        for (Thread thread : threads) {
            thread.join(15_000);
        }
        double heapAfterGc = alive ? heapAfterFullGc(gateway, admin) : Double.NaN;
        report(alive, tenantOk.get(), tenantSent.get(), latencies, heapAfterGc, last, peaks, gateway.peakRssKb());
    }

    private void report(boolean alive, long ok, long sent, List<Long> latencies, double heapAfterGc, Map<String, Double> last,
                        Map<String, Double> peaks, long peakRssKb) {
        List<Long> sorted;
        synchronized (latencies) {
            sorted = new ArrayList<>(latencies);
        }
        Collections.sort(sorted);
        double p50 = sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2) / 1e6;
        double p99 = sorted.isEmpty() ? Double.NaN : sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)) / 1e6;
        double success = sent == 0 ? 0 : (double) ok / sent;
        double direct = last.getOrDefault("direct", Double.NaN);
        double unsentPeak = peaks.getOrDefault("unsent", Double.NaN);
        out.println("· soak results (" + duration.toMinutes() + " min)");
        out.printf("  tenant: %,d of %,d events 2xx (%.3f%%; %.1f events/s of %d targeted), latency p50 %.1f ms, p99 %.1f ms%n",
                ok, sent, success * 100, sent / (double) duration.toSeconds(), TENANT_EVENTS_PER_SECOND, p50, p99);
        out.printf("  attackers' answers: %s%n", new java.util.TreeMap<>(Map.copyOf(counts)));
        out.printf("  gateway: heap %.0f MiB after a full GC at the end (peak used %.0f MiB of %d), direct memory %.0f MiB at the end "
                        + "(peak %.0f MiB), unsent answers at most %.0f KiB, peak RSS %,d MiB%n", heapAfterGc / MIB,
                peaks.getOrDefault("heap", Double.NaN) / MIB, ChildJvm.HEAP_MB, direct / MIB, peaks.getOrDefault("direct", Double.NaN) / MIB,
                unsentPeak / 1024, peakRssKb / 1024);
        List<String> failed = new ArrayList<>();
        check(failed, alive, "the gateway stayed up");
        check(failed, success >= BOUNDS.minSuccess(), "tenant success at least " + BOUNDS.minSuccess() * 100 + "%");
        check(failed, p99 <= BOUNDS.maxP99Millis(), "tenant p99 at most " + BOUNDS.maxP99Millis() + " ms");
        check(failed, heapAfterGc <= BOUNDS.maxHeapAfterGcMb() * MIB, "heap after GC at most " + BOUNDS.maxHeapAfterGcMb() + " MiB");
        check(failed, peaks.getOrDefault("direct", Double.MAX_VALUE) <= BOUNDS.maxDirectMb() * MIB,
                "direct memory at most " + BOUNDS.maxDirectMb() + " MiB");
        check(failed, unsentPeak <= BOUNDS.maxUnsentAnswersMb() * MIB + 64 * 1024,
                "unsent answers within their " + BOUNDS.maxUnsentAnswersMb() + " MiB budget");
        if (!failed.isEmpty()) {
            throw new IllegalStateException("the soak broke its bounds: " + String.join("; ", failed));
        }
        out.println("  every bound held");
    }

    private void check(List<String> failed, boolean held, String bound) {
        out.println("  " + (held ? "✓ " : "✗ ") + bound);
        if (!held) {
            failed.add(bound);
        }
    }

    private Thread start(String name, Runnable body) {
        Thread thread = new Thread(() -> {
            while (running.get()) {
                try {
                    body.run();
                } catch (RuntimeException e) {
                    count(name.replaceAll("-\\d+$", "") + " error");
                    pause(200);
                }
            }
        }, "soak-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Pipelines preflights and never reads: holds on until the gateway closes the connection (idle), then comes back. */
    private void neverRead(int port, String preflight) {
        byte[] chunk = preflight.repeat(100).getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = open(port)) {
            OutputStream out = socket.getOutputStream();
            while (running.get()) {
                out.write(chunk);
            }
        } catch (IOException closed) {
            count("stranger connection closed");
        }
    }

    /** A 64 KiB body announced and sent at 100 bytes a second: the receive timeout closes it. */
    private void slowUpload(int port, ProjectAdmin.NewProject attacker) {
        String head = "POST /api/v1/" + attacker.token() + "/transaction HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer "
                + attacker.key() + "\r\nContent-Type: application/json\r\nContent-Length: 65536\r\n\r\n";
        try (Socket socket = open(port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            byte[] drip = "{\"transaction\": \"GET /\"".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; running.get() && i < 65536 / drip.length; i++) {
                out.write(drip, 0, 10);
                pause(100);
            }
        } catch (IOException closed) {
            count("slow upload closed");
        }
    }

    private void bomb(String base, long attackerId, String dsnKey, byte[] bomb) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/" + attackerId + "/envelope/"))
                .header("X-Sentry-Auth", "Sentry sentry_key=" + dsnKey + ", sentry_version=7")
                .header("Content-Type", "application/x-sentry-envelope").header("Content-Encoding", "gzip")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(bomb)).build();
        count("bomb " + status(request));
    }

    /** Valid events whose ids all hash to partition 0 as Kafka's default partitioner would place them. */
    private void aimedIds(String base, ProjectAdmin.NewProject attacker) {
        String id;
        do {
            id = UUID.randomUUID().toString().replace("-", "");
        } while (Utils.toPositive(Utils.murmur2((attacker.token() + '/' + id).getBytes(StandardCharsets.UTF_8))) % PARTITIONS != 0);
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/v1/" + attacker.token() + "/transaction"))
                .header("Authorization", "Bearer " + attacker.key()).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("{\"transaction\": \"GET /aimed\", \"event_id\": \"" + id + "\"}")).build();
        count("aimed " + status(request));
        pause(1000 / AIMED_EVENTS_PER_SECOND);
    }

    /**
     * One of the tenant's senders, at its share of the steady rate. A latency is measured from when
     * the event was due, so a stall counts in full; a sender behind by more than a second starts
     * afresh from now (the events it did not send show as a rate below the target).
     */
    private void tenant(String base, ProjectAdmin.NewProject tenant, List<Long> latencies, AtomicLong ok, AtomicLong sent) {
        byte[] body = Payloads.transaction();
        byte[] gzipped = gzip(body);
        long interval = TimeUnit.SECONDS.toNanos(1) * TENANT_SENDERS / TENANT_EVENTS_PER_SECOND;
        long due = System.nanoTime();
        for (long n = 0; running.get(); n++) {
            long wait = due - System.nanoTime();
            if (wait > 0) {
                pause(TimeUnit.NANOSECONDS.toMillis(wait));
            } else if (-wait > TimeUnit.SECONDS.toNanos(1)) {
                due = System.nanoTime();
            }
            boolean compressed = n % 2 == 1;
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + "/api/v1/" + tenant.token() + "/transaction"))
                    .header("Authorization", "Bearer " + tenant.key()).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(10));
            if (compressed) {
                builder.header("Content-Encoding", "gzip");
            }
            HttpRequest request = builder.POST(HttpRequest.BodyPublishers.ofByteArray(compressed ? gzipped : body)).build();
            int status = status(request);
            if (!running.get()) {
                return; // stopped while this request was under way: not counted
            }
            sent.incrementAndGet();
            if (status / 100 == 2) {
                ok.incrementAndGet();
            }
            latencies.add(System.nanoTime() - due);
            due += interval;
        }
    }

    private static HttpRequest otlp(String base, ProjectAdmin.NewProject project, String contentType, boolean gzipped, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/api/v1/" + project.token() + "/otlp/v1/traces"))
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", contentType)
                .timeout(Duration.ofSeconds(60));
        if (gzipped) {
            request.header("Content-Encoding", "gzip");
        }
        return request.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    private static byte[] gzip(byte[] body) {
        try {
            return Payloads.gzip(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private int status(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private Socket open(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        sockets.add(socket);
        return socket;
    }

    private void count(String what) {
        counts.computeIfAbsent(what, key -> new LongAdder()).increment();
    }

    /** An envelope of one event item of 28 MiB of {@code {}}: gzip makes it about 29 KiB. */
    static byte[] envelopeBomb() {
        int objects = 28 * 1024 * 1024 / 3;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            String item = "{\"a\":[" + "{},".repeat(objects) + "{}]}";
            gzip.write(("{\"event_id\":\"" + UUID.randomUUID().toString().replace("-", "") + "\"}\n{\"type\":\"event\",\"length\":"
                    + item.length() + "}\n").getBytes(StandardCharsets.US_ASCII));
            gzip.write(item.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** Heap used, direct memory (Netty's and the JVM's direct buffers, whichever is larger), unsent answers, connections. */
    private Map<String, Double> gatewayMemory(String admin) {
        String metrics;
        try {
            metrics = http.send(HttpRequest.newBuilder(URI.create(admin + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
        return Map.of("heap", PrometheusText.sum(metrics, "jvm_memory_used_bytes\\{area=\"heap\"[^}]*}"),
                "direct", Math.max(PrometheusText.sum(metrics, "netty_direct_memory_used_bytes"),
                        PrometheusText.sum(metrics, "jvm_buffer_memory_used_bytes\\{id=\"direct\"}")),
                "unsent", PrometheusText.sum(metrics, "sluice_gateway_unsent_answer_bytes"),
                "connections", PrometheusText.sum(metrics, "sluice_gateway_open_connections"));
    }

    /** Asks the gateway's JVM for a full GC (jcmd), then reads its heap: what it holds, not what it has not collected yet. */
    private double heapAfterFullGc(ChildJvm gateway, String admin) throws IOException, InterruptedException {
        gateway.fullGc();
        return gatewayMemory(admin).getOrDefault("heap", Double.NaN);
    }


    private String elapsed(long endNanos) {
        long left = TimeUnit.NANOSECONDS.toSeconds(endNanos - System.nanoTime());
        return Math.max(0, duration.toSeconds() - left) / 60 + " min";
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
