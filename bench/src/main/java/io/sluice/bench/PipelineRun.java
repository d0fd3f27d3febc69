package io.sluice.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.engines.Ports;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.kafka.KafkaClients;
import io.sluice.processor.ProcessorMain;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseSettings;

/**
 * Sluice itself under load: the gateway in its own JVM with durable Kafka acks, then the processor
 * in its own JVM on everything the gateway published, then freshness with both running.
 */
final class PipelineRun {
    static final List<Integer> CONNECTIONS = List.of(16, 64, 256);
    static final int OVERLOAD_CONNECTIONS = 3 * CONNECTIONS.get(CONNECTIONS.size() - 1);
    /** Few enough connections that the whole pipeline keeps up on one small machine. */
    private static final int LIGHT_LOAD_CONNECTIONS = 4;

    private final Map<String, String> env;
    private final Wrk wrk;
    private final int seconds;
    private final Path work;
    private final Optional<ResultFiles> profileTo;
    private final PrintStream out;

    /** @param profileTo where to write JFR recordings of both children, if at all */
    PipelineRun(Map<String, String> env, Wrk wrk, int seconds, Path work, Optional<ResultFiles> profileTo, PrintStream out) {
        this.env = Map.copyOf(env);
        this.wrk = wrk;
        this.seconds = seconds;
        this.work = work;
        this.profileTo = profileTo;
        this.out = out;
    }

    PipelineResults measure(ProjectAdmin.NewProject project, byte[] body, byte[] gzipped) throws Exception {
        Settings settings = new Settings(env);
        ClickHouseSettings clickHouse = ClickHouseSettings.from(settings);
        out.println("· the gateway (its own JVM), durable Kafka acks");
        int gatewayPort = Ports.free();
        int adminPort = Ports.free();
        Map<String, String> gatewayEnv = new HashMap<>(env);
        gatewayEnv.put(GatewayConfig.PORT.name(), Integer.toString(gatewayPort));
        gatewayEnv.put(GatewayConfig.ADMIN_PORT.name(), Integer.toString(adminPort));
        try (ChildJvm gateway = child(GatewayMain.class, "gateway", gatewayEnv)) {
            gateway.awaitReady(adminPort);
            String url = "http://127.0.0.1:" + gatewayPort + "/api/v1/" + project.token() + "/transaction";
            wrk.warmUp(url, project.key(), body, seconds);
            Map<Integer, Wrk.Result> gatewayResults = new LinkedHashMap<>();
            for (int connections : CONNECTIONS) {
                gatewayResults.put(connections, wrk.run(url, project.key(), body, false, connections, seconds));
            }
            Wrk.Result gzip = wrk.run(url, project.key(), gzipped, true, 64, seconds);
            long peakRss = gateway.peakRssKb();
            Wrk.Result overload = wrk.run(url, project.key(), body, false, OVERLOAD_CONNECTIONS, seconds);
            long overloadRss = gateway.peakRssKb();

            out.println("· the processor on everything the gateway published");
            long published = publishedRecords(KafkaSettings.from(settings));
            try (ChildJvm processor = child(ProcessorMain.class, "processor", env)) {
                double processorRate = ProcessorThroughput.measure(processor, clickHouse, published);
                long processorBacklogRss = processor.peakRssKb();

                // The gateway is latency-bound, so its rate grows with connections: about half the
                // best rate needs about half the connections of the best run.
                double best = Math.max(overload.requestsPerSecond(), gatewayResults.values().stream()
                        .mapToDouble(Wrk.Result::requestsPerSecond).max().orElse(0));
                int bestConnections = overload.requestsPerSecond() >= best ? OVERLOAD_CONNECTIONS
                        : CONNECTIONS.get(CONNECTIONS.size() - 1);
                int halfRateConnections = Math.max(1, bestConnections / 2);
                out.println("· freshness: 2xx to visible in traffic_1m, under " + halfRateConnections + " connections of load");
                LoadedFreshness freshness = LoadedFreshness.measure(wrk, url, project.key(), body, halfRateConnections, seconds,
                        clickHouse, "fresh-half-");
                out.println("· freshness under light load (" + LIGHT_LOAD_CONNECTIONS + " connections)");
                LoadedFreshness lightFreshness = LoadedFreshness.measure(wrk, url, project.key(), body, LIGHT_LOAD_CONNECTIONS,
                        seconds, clickHouse, "fresh-light-");
                return new PipelineResults(gatewayResults, gzip, overload, peakRss, overloadRss, published, processorRate,
                        processorBacklogRss, processor.peakRssKb(), best, freshness, lightFreshness);
            }
        }
    }

    private ChildJvm child(Class<?> mainClass, String name, Map<String, String> childEnv) throws Exception {
        Optional<Path> recording = profileTo.isPresent() ? Optional.of(profileTo.get().recording(name)) : Optional.empty();
        return ChildJvm.start(mainClass, childEnv, work.resolve(name + ".log"), recording, out);
    }

    /** Records the gateway published: the end offsets of the transactions topic. */
    private static long publishedRecords(KafkaSettings kafka) {
        try (var consumer = new KafkaConsumer<byte[], byte[]>(KafkaClients.consumerProperties(kafka, null),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor(kafka.topics().transactions()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
