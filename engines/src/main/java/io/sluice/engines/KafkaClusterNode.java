package io.sluice.engines;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * One node of a {@link KafkaCluster}, run as its own JVM so that it can be killed outright:
 * {@code KafkaClusterNode <server.properties> <cluster id>}. Formats its log directory if it is
 * new, serves until SIGTERM (a clean shutdown) or SIGKILL, and halts when its parent goes away
 * (its standard input closes), so a crashed test leaves no broker behind.
 */
public final class KafkaClusterNode {
    private KafkaClusterNode() {
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            props.load(in);
        }
        KafkaConfig config = KafkaConfig.fromProps(props, false);
        new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(config.nodeId())
                .setClusterId(args[1])
                .setIgnoreFormatted(true)
                .setControllerListenerName("CONTROLLER")
                .setMetadataLogDirectory(config.metadataLogDir())
                .setHasDynamicQuorum(false)
                .addDirectory(props.getProperty("log.dirs"))
                .run();
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "kafka-node-shutdown"));
        Thread orphanWatch = new Thread(() -> {
            try (InputStream parent = System.in) {
                while (parent.read() != -1) {
                    // nothing is sent; only the end matters
                }
            } catch (Exception ignored) {
                // the parent is gone either way
            }
            Runtime.getRuntime().halt(1);
        }, "kafka-node-parent-watch");
        orphanWatch.setDaemon(true);
        orphanWatch.start();
        server.startup();
        System.out.println("kafka node " + config.nodeId() + " started");
    }
}
