package io.sluice.engines;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one) running in this JVM,
 * with its log on disk under {@code dataDir}. A restart on the same directory keeps the data.
 */
public final class KafkaBroker implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private KafkaBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /** Formats the directory if it is new, starts the broker and waits until it serves requests. */
    public static KafkaBroker start(Path dataDir, int port, int controllerPort) {
        Ports.requireFree(port, "Kafka");
        Ports.requireFree(controllerPort, "Kafka controller");
        try {
            Files.createDirectories(dataDir);
            Properties props = singleNodeConfig(dataDir, port, controllerPort);
            KafkaConfig config = KafkaConfig.fromProps(props, false);
            format(config, clusterId(dataDir), dataDir.resolve("log").toString());

            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            try {
                server.startup();
            } catch (RuntimeException e) {
                // Without this the controller's non-daemon threads keep the JVM alive.
                server.shutdown();
                server.awaitShutdown();
                throw e;
            }
            KafkaBroker broker = new KafkaBroker(server, "127.0.0.1:" + port);
            broker.awaitReady();
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka in " + dataDir, e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static Properties singleNodeConfig(Path dataDir, int port, int controllerPort) {
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", dataDir.resolve("log").toAbsolutePath().toString()),
                // One node: replication factor 1 everywhere. One partition for the internal
                // topics: with the default 50 the first exactly-once Streams run takes seconds longer.
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "1"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "1"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Sluice creates its topics explicitly; a typo must fail, not create a topic.
                Map.entry("auto.create.topics.enable", "false")));
        return props;
    }

    /** The cluster id is kept in the data directory so that a restart reuses the formatted log. */
    private static String clusterId(Path dataDir) throws IOException {
        Path file = dataDir.resolve("cluster.id");
        if (Files.exists(file)) {
            return Files.readString(file).strip();
        }
        String id = Uuid.randomUuid().toString();
        Files.writeString(file, id);
        return id;
    }

    private static void format(KafkaConfig config, String clusterId, String logDir) {
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(config.nodeId())
                    .setClusterId(clusterId)
                    .setIgnoreFormatted(true)
                    .setControllerListenerName("CONTROLLER")
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .setHasDynamicQuorum(false)
                    .addDirectory(logDir)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka log directory " + logDir, e);
        }
    }

    private void awaitReady() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(props)) {
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception notReady) {
                    if (System.nanoTime() > deadline) {
                        close();
                        throw new IllegalStateException("Kafka at " + bootstrapServers + " not ready after "
                                + READY_TIMEOUT.toSeconds() + " s", notReady);
                    }
                }
            }
        }
    }
}
