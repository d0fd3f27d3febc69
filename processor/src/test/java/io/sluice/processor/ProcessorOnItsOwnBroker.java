package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.sluice.config.Settings;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.TestSettings;

/**
 * A processor on a Kafka broker of its own, which a test may stop and start again on the same
 * ports (the shared test broker must not be stopped), with ten transactions already stored in
 * ClickHouse: the setup of the Kafka outage tests.
 */
final class ProcessorOnItsOwnBroker implements AutoCloseable {
    private final Path kafkaDir;
    private final int kafkaPort;
    private final int controllerPort;
    private KafkaBroker broker;
    private final ProcessorService processor;

    private ProcessorOnItsOwnBroker(Path kafkaDir, int kafkaPort, int controllerPort, KafkaBroker broker, ProcessorService processor) {
        this.kafkaDir = kafkaDir;
        this.kafkaPort = kafkaPort;
        this.controllerPort = controllerPort;
        this.broker = broker;
        this.processor = processor;
    }

    /** @param name the test's name: its topics' prefix and its ClickHouse database's suffix */
    static ProcessorOnItsOwnBroker startWithTenStored(Engines engines, Path workDir, String name) throws Exception {
        List<Integer> ports = Ports.free(2);
        Path kafkaDir = workDir.resolve("kafka");
        KafkaBroker broker = KafkaBroker.start(kafkaDir, ports.get(0), ports.get(1));
        Map<String, String> values = TestSettings.isolated(name, engines, workDir.resolve("state")).toMap();
        values.put("SLUICE_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        ProcessorService processor;
        try {
            processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)));
        } catch (Exception | Error e) {
            broker.close();
            throw e;
        }
        ProcessorOnItsOwnBroker started = new ProcessorOnItsOwnBroker(kafkaDir, ports.get(0), ports.get(1), broker, processor);
        try {
            try (RawEvents raw = new RawEvents(broker.bootstrapServers())) {
                for (int i = 0; i < 10; i++) {
                    raw.transaction(name + ".transactions", "shop", "before" + i, Instant.now(), 200);
                }
            }
            assertEquals("10", Await.until(Duration.ofSeconds(60), "10",
                    () -> ClickHouseQuery.run(engines, "SELECT count() FROM sluice_" + name + ".transactions FINAL").strip()));
            return started;
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    /** The processor's /healthz, /readyz and /metrics at 127.0.0.1. */
    String adminUrl(String path) {
        return "http://127.0.0.1:" + processor.adminPort() + path;
    }

    void stopKafka() {
        broker.close();
    }

    /** Kafka again, on the same ports and data. */
    void startKafka() throws Exception {
        broker = KafkaBroker.start(kafkaDir, kafkaPort, controllerPort);
    }

    @Override
    public void close() {
        processor.close();
        broker.close();
    }
}
