package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.Directories;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;

/** Kafka in this JVM and ClickHouse in a child process, on free loopback ports, in a temp dir. */
final class LocalEngines implements Engines, AutoCloseable {
    private final Path workDir;
    private final KafkaBroker kafka;
    private final ClickHouseServer clickHouse;

    private LocalEngines(Path workDir, KafkaBroker kafka, ClickHouseServer clickHouse) {
        this.workDir = workDir;
        this.kafka = kafka;
        this.clickHouse = clickHouse;
    }

    static LocalEngines start() {
        try {
            Path workDir = Files.createTempDirectory("sluice-engines-");
            ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
            ClickHouseServer clickHouse = ClickHouseServer.start(chdb, workDir.resolve("clickhouse"),
                    Ports.free(), Ports.free(), workDir.resolve("clickhouse.log"));
            try {
                KafkaBroker kafka = KafkaBroker.start(workDir.resolve("kafka"), Ports.free(), Ports.free());
                return new LocalEngines(workDir, kafka, clickHouse);
            } catch (RuntimeException e) {
                clickHouse.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a work directory for the test engines", e);
        }
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    @Override
    public String clickHouseUrl() {
        return clickHouse.httpUrl();
    }

    @Override
    public String clickHouseUser() {
        return "default";
    }

    @Override
    public String clickHousePassword() {
        return "";
    }

    @Override
    public void close() throws IOException {
        kafka.close();
        clickHouse.close();
        Directories.deleteRecursively(workDir);
    }
}
