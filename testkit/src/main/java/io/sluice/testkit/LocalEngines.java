package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.sluice.engines.Directories;
import io.sluice.engines.EnginePair;

/** Kafka in this JVM and ClickHouse in a child process, on free loopback ports, in a temp dir. */
final class LocalEngines implements Engines, AutoCloseable {
    private final Path workDir;
    private final EnginePair engines;

    private LocalEngines(Path workDir, EnginePair engines) {
        this.workDir = workDir;
        this.engines = engines;
    }

    static LocalEngines start() {
        try {
            Path workDir = Files.createTempDirectory("sluice-engines-");
            return new LocalEngines(workDir, EnginePair.start(workDir));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a work directory for the test engines", e);
        }
    }

    @Override
    public String kafkaBootstrapServers() {
        return engines.kafka().bootstrapServers();
    }

    @Override
    public String clickHouseUrl() {
        return engines.clickHouse().httpUrl();
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
        engines.close();
        Directories.deleteRecursively(workDir);
    }
}
