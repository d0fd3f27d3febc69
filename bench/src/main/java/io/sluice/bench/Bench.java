package io.sluice.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.TopicSetup;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.Directories;
import io.sluice.engines.EnginePair;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.ingest.EventPublisher;
import io.sluice.processor.ProcessorConfig;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;

/**
 * {@code ./sluice bench}: measures Sluice on this machine against ceilings measured in the same run,
 * and reports the ratios — gateway vs a bare Netty server (same load generator, same body), the
 * Kafka producer alone, the processor vs bulk-inserting the same rows into ClickHouse, and the
 * gateway's memory at full load and under 3× overload.
 */
public final class Bench {
    private static final int[] CONNECTIONS = {16, 64, 256};
    /** Few enough connections that the whole pipeline keeps up on one small machine. */
    private static final int LIGHT_LOAD_CONNECTIONS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;
    private final int seconds;
    private final boolean profile;
    private final Path resultsDir = Path.of("bench-results");
    private final String runName = "bench-" + Instant.now().toString().replace(':', '-');
    private final Map<String, Object> results = new LinkedHashMap<>();

    /** @param profile record a JFR profile of the gateway and the processor next to the results */
    public Bench(PrintStream out, int seconds, boolean profile) {
        this.out = out;
        this.seconds = seconds;
        this.profile = profile;
    }

    public void run() throws Exception {
        Wrk.ensureInstalled();
        Path work = Files.createTempDirectory("sluice-bench-");
        Wrk wrk = new Wrk(work);
        out.println("· starting Kafka and ClickHouse in " + work);
        try (EnginePair engines = EnginePair.start(work)) {
            KafkaBroker kafka = engines.kafka();
            ClickHouseServer clickHouse = engines.clickHouse();
            Map<String, String> env = environment(kafka.bootstrapServers(), clickHouse.httpUrl(), work);
            Settings settings = new Settings(env);
            TopicSetup.ensureTopics(KafkaSettings.from(settings));
            ProjectAdmin.NewProject project;
            try (ProjectAdmin admin = new ProjectAdmin(kafka.bootstrapServers(), "sluice.projects")) {
                project = admin.create("bench");
            }
            byte[] body = transactionBody();
            byte[] gzipped = gzip(body);
            results.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "body_bytes", body.length,
                    "gzip_bytes", gzipped.length, "seconds_per_run", seconds));

            out.println("· ceiling: a bare Netty server answering 200");
            Map<Integer, Wrk.Result> ceiling = new LinkedHashMap<>();
            int barePort = Ports.free();
            try (BareNettyServer bare = new BareNettyServer(barePort)) {
                warmUp(wrk, "http://127.0.0.1:" + barePort + "/api/v1/x/transaction", "k", body);
                for (int connections : CONNECTIONS) {
                    ceiling.put(connections, wrk.run("http://127.0.0.1:" + barePort + "/api/v1/x/transaction", "k", body, false,
                            connections, seconds));
                }
            }

            out.println("· the gateway (its own JVM), durable Kafka acks");
            int gatewayPort = Ports.free();
            int adminPort = Ports.free();
            Map<String, String> gatewayEnv = new HashMap<>(env);
            gatewayEnv.put("SLUICE_GATEWAY_PORT", Integer.toString(gatewayPort));
            gatewayEnv.put("SLUICE_GATEWAY_ADMIN_PORT", Integer.toString(adminPort));
            Process gateway = child("gateway", gatewayEnv, work.resolve("gateway.log"));
            Map<Integer, Wrk.Result> gatewayResults = new LinkedHashMap<>();
            Wrk.Result gzipResult;
            long peakRss;
            long overloadRss;
            Wrk.Result overload;
            long published;
            double processorRate;
            LoadedFreshness freshness;
            LoadedFreshness lightFreshness;
            int halfRateConnections;
            Process processor = null;
            try {
                awaitReady(adminPort);
                String url = "http://127.0.0.1:" + gatewayPort + "/api/v1/" + project.token() + "/transaction";
                warmUp(wrk, url, project.key(), body);
                for (int connections : CONNECTIONS) {
                    gatewayResults.put(connections, wrk.run(url, project.key(), body, false, connections, seconds));
                }
                gzipResult = wrk.run(url, project.key(), gzipped, true, 64, seconds);
                peakRss = peakRssKb(gateway.pid());
                overload = wrk.run(url, project.key(), body, false, 3 * CONNECTIONS[CONNECTIONS.length - 1], seconds);
                overloadRss = peakRssKb(gateway.pid());

                out.println("· the processor on everything the gateway published");
                published = publishedRecords(kafka.bootstrapServers());
                processor = child("processor", env, work.resolve("processor.log"));
                processorRate = processorThroughput(processor, clickHouse.httpUrl(), published, work);
                long processorBacklogRss = peakRssKb(processor.pid());

                // The gateway is latency-bound, so its rate grows with connections: about half the
                // best rate needs about half the connections of the best run.
                double best = Math.max(overload.requestsPerSecond(), gatewayResults.values().stream()
                        .mapToDouble(Wrk.Result::requestsPerSecond).max().orElse(0));
                int bestConnections = overload.requestsPerSecond() >= best ? 3 * CONNECTIONS[CONNECTIONS.length - 1]
                        : CONNECTIONS[CONNECTIONS.length - 1];
                halfRateConnections = Math.max(1, bestConnections / 2);
                out.println("· freshness: 2xx to visible in traffic_1m, under " + halfRateConnections + " connections of load");
                freshness = freshnessUnder(wrk, url, project.key(), body, halfRateConnections, clickHouse.httpUrl(), "fresh-half-");
                out.println("· freshness under light load (" + LIGHT_LOAD_CONNECTIONS + " connections)");
                lightFreshness = freshnessUnder(wrk, url, project.key(), body, LIGHT_LOAD_CONNECTIONS, clickHouse.httpUrl(),
                        "fresh-light-");
                results.put("freshness_best_requests_per_s", best);
                results.put("processor_peak_rss_mb", Map.of("working_off_backlog", processorBacklogRss / 1024,
                        "after_freshness_runs", peakRssKb(processor.pid()) / 1024));
            } finally {
                if (processor != null) {
                    processor.destroy();
                    processor.waitFor(60, TimeUnit.SECONDS);
                }
                gateway.destroy();
                gateway.waitFor(30, TimeUnit.SECONDS);
            }

            out.println("· ceiling: the Kafka producer alone");
            double kafkaRate = producerCeiling(kafka.bootstrapServers(), body);
            out.println("· ceiling: Kafka Streams copying the raw topic, exactly once, nothing else");
            double streamsRate = StreamsCeiling.measure(ProcessorConfig.from(settings), "sluice.transactions", published,
                    work.resolve("streams-ceiling"));
            out.println("· ceiling: bulk inserts into ClickHouse, RowBinary and JSONEachRow");
            InsertCeilings insertCeilings = clickHouseCeilings(clickHouse.httpUrl(), (int) Math.min(published, 200_000));

            report(ceiling, gatewayResults, gzipResult, overload, peakRss, overloadRss, kafkaRate, published, processorRate,
                    streamsRate, insertCeilings, freshness, lightFreshness);
        }
        // Gigabytes of Kafka and ClickHouse data; kept (with the logs) only when the run failed.
        Directories.deleteRecursively(work);
    }

    private void report(Map<Integer, Wrk.Result> ceiling, Map<Integer, Wrk.Result> gateway, Wrk.Result gzip,
                        Wrk.Result overload, long peakRssKb, long overloadRssKb, double kafkaRate, long published,
                        double processorRate, double streamsRate, InsertCeilings insertCeilings,
                        LoadedFreshness freshness, LoadedFreshness lightFreshness) throws IOException {
        out.println();
        out.printf("%-34s %12s %12s %8s %9s %9s %9s%n", "run", "req/s", "ceiling", "ratio", "p50 ms", "p99 ms", "p99.9 ms");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int connections : CONNECTIONS) {
            Wrk.Result g = gateway.get(connections);
            Wrk.Result c = ceiling.get(connections);
            out.printf("%-34s %12.0f %12.0f %7.0f%% %9.2f %9.2f %9.2f%n", "gateway, " + connections + " connections",
                    g.requestsPerSecond(), c.requestsPerSecond(), 100 * g.requestsPerSecond() / c.requestsPerSecond(),
                    g.p50Millis(), g.p99Millis(), g.p999Millis());
            rows.add(Map.of("connections", connections, "gateway", g, "ceiling", c));
        }
        Wrk.Result c64 = ceiling.get(64);
        out.printf("%-34s %12.0f %12.0f %7.0f%% %9.2f %9.2f %9.2f%n", "gateway, gzip body, 64 connections",
                gzip.requestsPerSecond(), c64.requestsPerSecond(), 100 * gzip.requestsPerSecond() / c64.requestsPerSecond(),
                gzip.p50Millis(), gzip.p99Millis(), gzip.p999Millis());
        out.printf("%-34s %12.0f %12s %8s %9.2f %9.2f %9.2f  (non-2xx %d)%n", "gateway, 3x overload (768 conn.)",
                overload.requestsPerSecond(), "", "", overload.p50Millis(), overload.p99Millis(), overload.p999Millis(), overload.non2xx());
        out.printf("%-34s %12.0f%n", "Kafka producer alone, records/s", kafkaRate);
        out.printf("%-34s %12.0f %12.0f %7.0f%%   (%d records; ceiling: RowBinary insert)%n", "processor, records/s",
                processorRate, insertCeilings.rowBinary(), 100 * processorRate / insertCeilings.rowBinary(), published);
        out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: JSONEachRow insert, the sink's format)%n", "",
                processorRate, insertCeilings.jsonEachRow(), 100 * processorRate / insertCeilings.jsonEachRow());
        out.printf("%-34s %12.0f %12.0f %7.0f%%   (ceiling: Kafka Streams copying raw, exactly once)%n", "",
                processorRate, streamsRate, 100 * processorRate / streamsRate);
        out.printf("%-34s %9d MB at full load, %d MB after 3x overload%n", "gateway peak RSS", peakRssKb / 1024, overloadRssKb / 1024);
        @SuppressWarnings("unchecked")
        Map<String, Long> processorRss = (Map<String, Long>) results.get("processor_peak_rss_mb");
        out.printf("%-34s %9d MB working off %d records at full speed, %d MB after the freshness runs%n", "processor peak RSS",
                processorRss.get("working_off_backlog"), published, processorRss.get("after_freshness_runs"));
        for (LoadedFreshness f : List.of(freshness, lightFreshness)) {
            out.printf("%-34s p50 %.0f ms, p99 %.0f ms (%d markers, load %.0f req/s of a best %.0f)%n",
                    "freshness, 2xx to traffic_1m", f.freshness().p50Millis(), f.freshness().p99Millis(),
                    f.freshness().markers(), f.loadRequestsPerSecond(), (Double) results.get("freshness_best_requests_per_s"));
        }
        results.put("freshness_half_load", freshness);
        results.put("freshness_light_load", lightFreshness);
        results.put("gateway", rows);
        results.put("gateway_gzip_64", gzip);
        results.put("gateway_overload_768", overload);
        results.put("kafka_producer_records_per_s", kafkaRate);
        results.put("processor", Map.of("records", published, "records_per_s", processorRate,
                "clickhouse_rowbinary_ceiling_rows_per_s", insertCeilings.rowBinary(),
                "clickhouse_jsoneachrow_ceiling_rows_per_s", insertCeilings.jsonEachRow(),
                "kafka_streams_copy_ceiling_records_per_s", streamsRate));
        results.put("gateway_peak_rss_mb", Map.of("full_load", peakRssKb / 1024, "after_overload", overloadRssKb / 1024));
        Files.createDirectories(resultsDir);
        Path file = resultsDir.resolve(runName + ".json");
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), results);
        out.println();
        out.println("written to " + file);
    }

    private static Map<String, String> environment(String bootstrap, String clickHouseUrl, Path work) {
        Map<String, String> env = new HashMap<>();
        env.put("SLUICE_KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("SLUICE_CLICKHOUSE_URL", clickHouseUrl);
        env.put("SLUICE_PROCESSOR_STATE_DIR", work.resolve("processor").toString());
        env.put("SLUICE_PROCESSOR_ADMIN_PORT", "0");
        env.put("SLUICE_TOPIC_PARTITIONS", "4");
        return env;
    }

    private Process child(String command, Map<String, String> env, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> commandLine = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseG1GC"));
        if (profile) {
            // The "profile" settings sample every thread's stack every 10–20 ms; written when the child exits.
            Files.createDirectories(resultsDir);
            Path recording = resultsDir.resolve(runName + "-" + command + ".jfr").toAbsolutePath();
            // JDK 25 and newer can also sample by CPU time (also in native code and syscalls): far more accurate.
            String cpuTime = Runtime.version().feature() >= 25 ? ",jdk.CPUTimeSample#enabled=true" : "";
            commandLine.add("-XX:StartFlightRecording=settings=profile" + cpuTime + ",filename=" + recording);
            out.println("  recording " + recording);
        }
        commandLine.addAll(List.of("-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "io.sluice.cli.SluiceCli", command));
        ProcessBuilder builder = new ProcessBuilder(commandLine);
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return builder.start();
    }

    private static void awaitReady(int adminPort) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 600; i++) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the gateway did not become ready");
    }

    /** Freshness under a load, and the rate that load ran at. */
    record LoadedFreshness(Freshness.Result freshness, double loadRequestsPerSecond) {
    }

    private LoadedFreshness freshnessUnder(Wrk wrk, String url, String key, byte[] body, int connections,
                                           String clickHouseUrl, String markerPrefix) throws Exception {
        Wrk.Result[] background = new Wrk.Result[1];
        Thread load = new Thread(() -> {
            try {
                background[0] = wrk.run(url, key, body, false, connections, seconds + 2);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        load.start();
        Freshness.Result result;
        try (Client client = ClickHouseClients.create(new ClickHouseSettings(clickHouseUrl, "default", "", "sluice", 90))) {
            result = Freshness.measure(url, key, client, seconds, markerPrefix);
        }
        load.join();
        return new LoadedFreshness(result, background[0] == null ? 0 : background[0].requestsPerSecond());
    }

    /**
     * A few seconds of load before measuring, discarded: the JIT compiles the hot path during the
     * first seconds of a JVM, and that compiling would otherwise be billed to the first run.
     */
    private void warmUp(Wrk wrk, String url, String key, byte[] body) throws Exception {
        wrk.run(url, key, body, false, 64, Math.max(3, seconds / 2));
    }

    /** Peak resident memory of a process (VmHWM), in KiB. */
    private static long peakRssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return -1;
    }

    private double producerCeiling(String bootstrap, byte[] body) throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("bench.producer-ceiling", 4, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = (KafkaProducer<byte[], byte[]>) EventPublisher.durableProducer(bootstrap,
                java.time.Duration.ofSeconds(30))) {
            producer.partitionsFor("bench.producer-ceiling"); // metadata first, as the gateway does
            byte[] key = null; // spread over the partitions, like events of many projects
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long start = System.nanoTime();
            long sent = 0;
            while (System.nanoTime() < deadline) {
                try {
                    producer.send(new ProducerRecord<>("bench.producer-ceiling", null, key, body));
                } catch (org.apache.kafka.common.errors.TimeoutException bufferFull) {
                    continue; // the buffer is full for a moment (max.block.ms is short on purpose)
                }
                sent++;
            }
            producer.flush();
            return sent / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static long publishedRecords(String bootstrap) {
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(
                Map.of("bootstrap.servers", bootstrap), new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor("sluice.transactions").stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition())).toList();
            return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * Records/s from 20% of the records in the history table to all of them there and counted in
     * traffic_1m: the sustained rate, without the start-up and JIT warm-up of the first fifth.
     * (Progress is read from the history, which is written as records are parsed; under a backlog
     * the aggregation's repartitioned input lags behind it and catches up at the end.)
     */
    private static double processorThroughput(Process processor, String clickHouseUrl, long expected, Path work) throws Exception {
        try (Client client = ClickHouseClients.create(new ClickHouseSettings(clickHouseUrl, "default", "", "sluice", 90))) {
            long startedAt = 0;
            while (true) {
                long history = 0;
                long counted = 0;
                try {
                    history = client.queryAll("SELECT count() AS n FROM sluice.transactions").get(0).getLong("n");
                    counted = client.queryAll("SELECT sum(requests) AS n FROM sluice.traffic_1m FINAL").get(0).getLong("n");
                } catch (RuntimeException tablesNotThereYet) {
                    // the processor creates them at start
                }
                if (history >= expected / 5 && startedAt == 0) {
                    startedAt = System.nanoTime();
                }
                if (history >= expected && counted >= expected) {
                    return (expected - expected / 5) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                }
                if (!processor.isAlive()) {
                    throw new IllegalStateException("the processor stopped; see " + work.resolve("processor.log"));
                }
                Thread.sleep(100);
            }
        }
    }

    /** Rows/s of bulk-inserting history rows straight into ClickHouse, in the sink's format and in RowBinary. */
    record InsertCeilings(double jsonEachRow, double rowBinary) {
    }

    /**
     * Inserts the same {@code rows} history rows (as the processor writes them) into a copy of
     * sluice.transactions twice, 50,000 per insert: once as JSONEachRow (the sink's format), once
     * as RowBinary (ClickHouse's cheapest row format to parse).
     */
    private static InsertCeilings clickHouseCeilings(String clickHouseUrl, int rows) throws Exception {
        ClickHouseSettings settings = new ClickHouseSettings(clickHouseUrl, "default", "", "sluice", 90);
        try (Client client = ClickHouseClients.create(settings)) {
            SchemaMigrations.apply(client, settings);
            client.execute("CREATE TABLE IF NOT EXISTS sluice.bench_ceiling AS sluice.transactions").get().close();
            List<byte[]> json = new ArrayList<>();
            List<byte[]> binary = new ArrayList<>();
            ByteArrayOutputStream jsonBatch = new ByteArrayOutputStream();
            RowBinaryRows binaryBatch = new RowBinaryRows();
            long now = System.currentTimeMillis();
            for (int i = 0; i < rows; i++) {
                String eventId = String.format("%032x", i);
                String userId = "u" + (i % 1000);
                jsonBatch.writeBytes(("{\"event_id\":\"" + eventId + "\",\"project\":\"bench\",\"timestamp\":" + now
                        + ",\"received_at\":" + now + ",\"time_adjusted\":false,\"environment\":\"production\",\"transaction\":"
                        + "\"GET /users/42\",\"method\":\"GET\",\"url\":\"https://shop.example/users/42\",\"path\":\"/users/42\","
                        + "\"status_code\":200,\"user_id\":\"" + userId + "\",\"sdk_name\":\"sentry.python\",\"sdk_version\":"
                        + "\"2.19.0\",\"runtime_name\":\"CPython\",\"runtime_version\":\"3.12.7\",\"os_name\":\"Linux\",\"os_version\":"
                        + "\"6.1\",\"kafka_partition\":0,\"kafka_offset\":" + i + "}\n").getBytes(StandardCharsets.UTF_8));
                binaryBatch.string(eventId).string("bench").dateTime64Millis(now).dateTime64Millis(now).bool(false)
                        .string("production").string("GET /users/42").string("GET").string("https://shop.example/users/42")
                        .string("/users/42").nullableUInt16(200).string(userId).string("sentry.python").string("2.19.0")
                        .string("CPython").string("3.12.7").string("Linux").string("6.1").uint32(0).uint64(i);
                if ((i + 1) % 50_000 == 0 || i == rows - 1) {
                    json.add(jsonBatch.toByteArray());
                    jsonBatch.reset();
                    binary.add(binaryBatch.takeBytes());
                }
            }
            double jsonRate = insertRate(client, json, ClickHouseFormat.JSONEachRow, rows);
            client.execute("TRUNCATE TABLE sluice.bench_ceiling").get().close();
            double binaryRate = insertRate(client, binary, ClickHouseFormat.RowBinary, rows);
            long stored = client.queryAll("SELECT count() AS n FROM sluice.bench_ceiling").get(0).getLong("n");
            if (stored != rows) {
                throw new IllegalStateException("the RowBinary ceiling stored " + stored + " of " + rows + " rows");
            }
            return new InsertCeilings(jsonRate, binaryRate);
        }
    }

    private static double insertRate(Client client, List<byte[]> batches, ClickHouseFormat format, int rows) throws Exception {
        long start = System.nanoTime();
        for (byte[] batch : batches) {
            client.insert("sluice.bench_ceiling", new ByteArrayInputStream(batch), format).get(120, TimeUnit.SECONDS).close();
        }
        return rows / ((System.nanoTime() - start) / 1e9);
    }

    /** A realistic transaction of about 600 bytes, as SDKs send them. */
    static byte[] transactionBody() {
        return ("{\"transaction\": \"GET /api/users/{id}\", \"environment\": \"production\", \"release\": \"shop@2.14.0\","
                + " \"sent_at\": \"" + Instant.now() + "\", \"platform\": \"python\","
                + " \"tags\": {\"http.status_code\": \"200\", \"server_name\": \"web-7\"},"
                + " \"sdk\": {\"name\": \"sentry.python.django\", \"version\": \"2.19.0\"},"
                + " \"contexts\": {\"trace\": {\"trace_id\": \"771a43a4192642f0b136d5159a501700\", \"span_id\": \"a0cfbde2bdff3adc\","
                + " \"op\": \"http.server\", \"status\": \"ok\", \"data\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}},"
                + " \"runtime\": {\"name\": \"CPython\", \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": \"6.1.0\"}},"
                + " \"user\": {\"id\": \"account-4242\"}, \"request\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzip(byte[] body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(body);
        }
        return out.toByteArray();
    }
}
