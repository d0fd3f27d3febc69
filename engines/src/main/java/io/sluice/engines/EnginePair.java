package io.sluice.engines;

import java.nio.file.Path;

/**
 * A Kafka broker (in this JVM) and a ClickHouse server (a child process) under one directory, on
 * free loopback ports: what the tests and the benchmark run against. Closing stops both; the
 * directory is the caller's to keep or delete.
 */
public final class EnginePair implements AutoCloseable {
    private final KafkaBroker kafka;
    private final ClickHouseServer clickHouse;

    private EnginePair(KafkaBroker kafka, ClickHouseServer clickHouse) {
        this.kafka = kafka;
        this.clickHouse = clickHouse;
    }

    /** Installs ClickHouse on first use, then starts both; if Kafka cannot start, ClickHouse is stopped again. */
    public static EnginePair start(Path dir) {
        ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
        java.util.List<Integer> ports = Ports.free(4);
        ClickHouseServer clickHouse = ClickHouseServer.start(chdb, dir.resolve("clickhouse"), ports.get(0), ports.get(1),
                dir.resolve("clickhouse.log"));
        try {
            return new EnginePair(KafkaBroker.start(dir.resolve("kafka"), ports.get(2), ports.get(3)), clickHouse);
        } catch (RuntimeException e) {
            clickHouse.close();
            throw e;
        }
    }

    public KafkaBroker kafka() {
        return kafka;
    }

    public ClickHouseServer clickHouse() {
        return clickHouse;
    }

    @Override
    public void close() {
        kafka.close();
        clickHouse.close();
    }
}
