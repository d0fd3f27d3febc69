package io.sluice.engines;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka cluster of several nodes (KRaft, each node broker and controller, a static quorum
 * of all of them) on this machine, each node its own JVM: {@link #kill} stops one the way a
 * crash or an OOM kill does (SIGKILL, nothing flushed, no controlled shutdown), {@link #restart}
 * brings it back on its log. Internal topics are replicated to three nodes with two in sync, as
 * a production cluster has them, and a dead broker is fenced after 3 s instead of 9.
 */
public final class KafkaCluster implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final String clusterId;
    private final List<Integer> ports;
    private final Process[] nodes;

    private KafkaCluster(Path dir, String clusterId, List<Integer> ports, int size) {
        this.dir = dir;
        this.clusterId = clusterId;
        this.ports = ports;
        this.nodes = new Process[size];
    }

    /** Starts {@code size} (at least 3) nodes on free ports under {@code dir} and waits until all serve. */
    public static KafkaCluster start(Path dir, int size) {
        if (size < 3) {
            throw new IllegalArgumentException("a cluster here has at least 3 nodes (replication factor 3), not " + size);
        }
        List<Integer> ports = Ports.free(2 * size); // distinct: a client port equal to a controller's would not serve clients
        List<Integer> clientPorts = ports.subList(0, size);
        List<Integer> controllerPorts = ports.subList(size, 2 * size);
        String voters = IntStream.range(0, size).mapToObj(i -> (i + 1) + "@127.0.0.1:" + controllerPorts.get(i))
                .collect(Collectors.joining(","));
        KafkaCluster cluster = new KafkaCluster(dir, Uuid.randomUuid().toString(), clientPorts, size);
        try {
            for (int i = 0; i < size; i++) {
                Path nodeDir = dir.resolve("node-" + (i + 1));
                Files.createDirectories(nodeDir);
                Properties props = nodeConfig(i + 1, nodeDir, clientPorts.get(i), controllerPorts.get(i), voters);
                try (OutputStream out = Files.newOutputStream(nodeDir.resolve("server.properties"))) {
                    props.store(out, "KafkaCluster node " + (i + 1));
                }
            }
            // All at once: a controller quorum forms only when a majority of voters is up.
            for (int node = 1; node <= size; node++) {
                cluster.launch(node);
            }
            cluster.awaitNodes(allNodes(size));
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e instanceof IOException io ? new UncheckedIOException("cannot start Kafka in " + dir, io) : (RuntimeException) e;
        }
    }

    public String bootstrapServers() {
        return ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** Node ids run from 1 to size. */
    public int size() {
        return nodes.length;
    }

    /** Kills node {@code node} (1-based) with SIGKILL and waits until its process is gone. */
    public void kill(int node) {
        Process process = nodes[node - 1];
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Kafka node " + node + " still runs 30 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing Kafka node " + node, e);
        }
    }

    /** Starts a killed node again on its log directory and waits until the cluster has every node. */
    public void restart(int node) {
        if (nodes[node - 1].isAlive()) {
            throw new IllegalStateException("Kafka node " + node + " is running");
        }
        launch(node);
        awaitNodes(allNodes(nodes.length));
    }

    /** Waits until every partition of these topics has all its replicas in sync; false on timeout. */
    public boolean awaitInSync(Collection<String> topics, Duration timeout) {
        try (Admin admin = admin()) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get(5, TimeUnit.SECONDS);
                    if (described.values().stream().flatMap(topic -> topic.partitions().stream())
                            .allMatch(partition -> partition.isr().size() == partition.replicas().size())) {
                        return true;
                    }
                } catch (Exception notYet) {
                    // the cluster is still settling: look again
                }
                sleepBriefly();
            }
            return false;
        }
    }

    /** Stops every node cleanly (SIGTERM), or outright after 30 s. */
    @Override
    public void close() {
        for (Process process : nodes) {
            if (process != null) {
                process.destroy();
            }
        }
        for (Process process : nodes) {
            if (process == null) {
                continue;
            }
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** C1 only and a serial collector: three broker JVMs start on a 2-core CI machine without starving the test. */
    private void launch(int node) {
        Path nodeDir = dir.resolve("node-" + node);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx384m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                KafkaClusterNode.class.getName(), nodeDir.resolve("server.properties").toString(), clusterId);
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(nodeDir.resolve("node.log").toFile()));
        try {
            nodes[node - 1] = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka node " + node, e);
        }
    }

    private void awaitNodes(Set<Integer> expected) {
        try (Admin admin = admin()) {
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            Set<Integer> seen = Set.of();
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < nodes.length; i++) {
                    if (!nodes[i].isAlive()) {
                        throw new IllegalStateException("Kafka node " + (i + 1) + " exited with " + nodes[i].exitValue()
                                + "; see " + dir.resolve("node-" + (i + 1)).resolve("node.log"));
                    }
                }
                try {
                    seen = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).stream().map(Node::id).collect(Collectors.toSet());
                    if (seen.equals(expected)) {
                        return;
                    }
                } catch (Exception notReady) {
                    // not serving yet
                }
                sleepBriefly();
            }
            throw new IllegalStateException("Kafka cluster at " + bootstrapServers() + " has nodes " + seen + " after "
                    + READY_TIMEOUT.toSeconds() + " s, not " + expected);
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000));
    }

    private static Set<Integer> allNodes(int size) {
        return IntStream.rangeClosed(1, size).boxed().collect(Collectors.toSet());
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka", e);
        }
    }

    private static Properties nodeConfig(int nodeId, Path nodeDir, int port, int controllerPort, String voters) {
        Map<String, String> config = new TreeMap<>(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", Integer.toString(nodeId)),
                Map.entry("controller.quorum.voters", voters),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", nodeDir.resolve("log").toAbsolutePath().toString()),
                // Three copies, two in sync, for what Kafka creates itself too (offsets, transactions).
                Map.entry("default.replication.factor", "3"),
                Map.entry("min.insync.replicas", "2"),
                Map.entry("offsets.topic.replication.factor", "3"),
                Map.entry("offsets.topic.num.partitions", "1"),
                Map.entry("transaction.state.log.replication.factor", "3"),
                Map.entry("transaction.state.log.min.isr", "2"),
                Map.entry("transaction.state.log.num.partitions", "1"),
                Map.entry("share.coordinator.state.topic.replication.factor", "3"),
                Map.entry("share.coordinator.state.topic.min.isr", "2"),
                Map.entry("unclean.leader.election.enable", "false"),
                // A killed broker's partitions move to the others after 3 s (the default is 9).
                Map.entry("broker.session.timeout.ms", "3000"),
                Map.entry("broker.heartbeat.interval.ms", "500"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("auto.create.topics.enable", "false")));
        Properties props = new Properties();
        props.putAll(config);
        return props;
    }

    @Override
    public String toString() {
        List<String> states = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            states.add((i + 1) + (nodes[i] != null && nodes[i].isAlive() ? " up" : " down"));
        }
        return "KafkaCluster[" + bootstrapServers() + ", nodes " + states + "]";
    }
}
