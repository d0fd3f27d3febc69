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
 * Plaintext, or with {@link #startWithScram} a SASL_PLAINTEXT listener where clients (and the
 * broker itself) log in with SCRAM-SHA-512, as a secured production cluster asks; with
 * {@link #startWithScramOverTls} the same over TLS (SASL_SSL).
 */
public final class KafkaBroker implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final Map<String, String> clientProperties;

    private KafkaBroker(KafkaRaftServer server, String bootstrapServers, Map<String, String> clientProperties) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = clientProperties;
    }

    /** A user a SCRAM broker knows from its first start. Name and password: letters, digits, '-', '_'. */
    public record ScramUser(String name, String password) {
        public ScramUser {
            if (!name.matches("[A-Za-z0-9_-]+") || !password.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("SCRAM user names and passwords here are letters, digits, '-' and '_'");
            }
        }

        /** The {@code sasl.jaas.config} a client logs in as this user with. */
        public String jaasConfig() {
            return jaasConfig(password);
        }

        /** The same user with another password: for tests of refused credentials. */
        public String jaasConfig(String anyPassword) {
            return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + name
                    + "\" password=\"" + anyPassword + "\";";
        }
    }

    /** Formats the directory if it is new, starts the broker and waits until it serves requests. */
    public static KafkaBroker start(Path dataDir, int port, int controllerPort) {
        return start(dataDir, port, controllerPort, null, null);
    }

    /**
     * A broker whose one client listener takes SASL_PLAINTEXT with SCRAM-SHA-512 only. The user's
     * credential is written when the directory is formatted ({@code kafka-storage format
     * --add-scram}); the broker talks to itself as that user, so it needs no other.
     */
    public static KafkaBroker startWithScram(Path dataDir, int port, int controllerPort, ScramUser user) {
        return start(dataDir, port, controllerPort, java.util.Objects.requireNonNull(user), null);
    }

    /**
     * PEM files of a TLS identity: the broker's private key (PKCS#8, unencrypted) followed by its
     * certificate, and the certificate alone, which clients trust. The certificate must name the
     * address clients use (a subjectAltName of IP:127.0.0.1): clients check it.
     */
    public record Tls(Path keyAndCertificatePem, Path certificatePem) {
    }

    /** As {@link #startWithScram}, with the listener (SASL_SSL) encrypted with this identity. */
    public static KafkaBroker startWithScramOverTls(Path dataDir, int port, int controllerPort, ScramUser user, Tls tls) {
        return start(dataDir, port, controllerPort, java.util.Objects.requireNonNull(user), java.util.Objects.requireNonNull(tls));
    }

    private static KafkaBroker start(Path dataDir, int port, int controllerPort, ScramUser user, Tls tls) {
        Ports.requireFree(port, "Kafka");
        Ports.requireFree(controllerPort, "Kafka controller");
        try {
            Files.createDirectories(dataDir);
            Properties props = singleNodeConfig(dataDir, port, controllerPort);
            if (user != null) {
                props.putAll(scramListener(port, controllerPort, user, tls));
            }
            KafkaConfig config = KafkaConfig.fromProps(props, false);
            format(config, clusterId(dataDir), dataDir.resolve("log").toString(), user);

            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            try {
                server.startup();
            } catch (RuntimeException e) {
                // Without this the controller's non-daemon threads keep the JVM alive.
                server.shutdown();
                server.awaitShutdown();
                throw e;
            }
            KafkaBroker broker = new KafkaBroker(server, "127.0.0.1:" + port, user == null ? Map.of() : clientLogin(user, tls));
            broker.awaitReady();
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Kafka in " + dataDir, e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** What a client needs beyond the address to be let in: nothing for plaintext, the SASL login for SCRAM. */
    public Map<String, String> clientProperties() {
        return clientProperties;
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

    private static Map<String, String> clientLogin(ScramUser user, Tls tls) {
        Map<String, String> props = new java.util.HashMap<>(Map.of("security.protocol", listener(tls),
                "sasl.mechanism", SCRAM_MECHANISM, "sasl.jaas.config", user.jaasConfig()));
        if (tls != null) {
            props.putAll(Map.of("ssl.truststore.type", "PEM", "ssl.truststore.location", tls.certificatePem().toString()));
        }
        return Map.copyOf(props);
    }

    private static String listener(Tls tls) {
        return tls == null ? "SASL_PLAINTEXT" : "SASL_SSL";
    }

    /** Replaces the plaintext client listener by a SCRAM one, also used between the broker and itself. */
    private static Map<String, String> scramListener(int port, int controllerPort, ScramUser user, Tls tls) {
        String mechanism = SCRAM_MECHANISM.toLowerCase(java.util.Locale.ROOT);
        String saslListener = listener(tls);
        Map<String, String> props = new java.util.HashMap<>();
        if (tls != null) {
            // The broker's identity, and what it trusts when it connects to itself.
            props.putAll(Map.of("ssl.keystore.type", "PEM", "ssl.keystore.location", tls.keyAndCertificatePem().toString(),
                    "ssl.truststore.type", "PEM", "ssl.truststore.location", tls.certificatePem().toString()));
        }
        props.putAll(Map.of(
                "listeners", saslListener + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:"
                        + controllerPort,
                "advertised.listeners", saslListener + "://127.0.0.1:" + port,
                "inter.broker.listener.name", saslListener,
                "listener.security.protocol.map", saslListener + ":" + saslListener + ",CONTROLLER:PLAINTEXT",
                "sasl.enabled.mechanisms", SCRAM_MECHANISM,
                "sasl.mechanism.inter.broker.protocol", SCRAM_MECHANISM,
                "listener.name." + saslListener.toLowerCase(java.util.Locale.ROOT) + "." + mechanism + ".sasl.jaas.config",
                user.jaasConfig()));
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

    private static void format(KafkaConfig config, String clusterId, String logDir, ScramUser user) {
        try {
            Formatter formatter = new Formatter();
            if (user != null) {
                formatter.setScramArguments(java.util.List.of(
                        SCRAM_MECHANISM + "=[name=" + user.name() + ",password=" + user.password() + "]"));
            }
            formatter
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
        props.putAll(clientProperties);
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
