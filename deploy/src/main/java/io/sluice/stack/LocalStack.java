package io.sluice.stack;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

import io.sluice.config.Settings;
import io.sluice.engines.ChdbDistribution;
import io.sluice.engines.ClickHouseServer;
import io.sluice.engines.KafkaBroker;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.Processor;
import io.sluice.processor.ProcessorConfig;

/**
 * The whole system on one machine: ClickHouse (child process), a Kafka broker, the processor and
 * the gateway (this JVM), with all data under {@link StackConfig#home()}. Started in that order,
 * stopped in reverse; a restart on the same home keeps the data.
 */
public final class LocalStack implements AutoCloseable {
    private static final Duration PROCESSOR_START_TIMEOUT = Duration.ofSeconds(120);

    private final ClickHouseServer clickHouse;
    private final KafkaBroker kafka;
    private final Processor processor;
    private final Gateway gateway;

    private LocalStack(ClickHouseServer clickHouse, KafkaBroker kafka, Processor processor, Gateway gateway) {
        this.clickHouse = clickHouse;
        this.kafka = kafka;
        this.processor = processor;
        this.gateway = gateway;
    }

    /**
     * Starts everything, printing each part as it becomes ready.
     *
     * @param settings the environment: component settings (SLUICE_*) apply to the stack's parts
     */
    public static LocalStack start(StackConfig config, Settings settings, PrintStream out) throws InterruptedException {
        ClickHouseServer clickHouse = null;
        KafkaBroker kafka = null;
        Processor processor = null;
        try {
            out.println("· ClickHouse: installing/starting (first run downloads ~180 MB)…");
            ChdbDistribution chdb = ChdbDistribution.ensureInstalled(ChdbDistribution.defaultCacheDir());
            clickHouse = ClickHouseServer.start(chdb, config.home().resolve("clickhouse"),
                    config.clickHouseHttpPort(), config.clickHouseTcpPort(), config.logs().resolve("clickhouse.log"));
            out.println("✓ ClickHouse ready    " + clickHouse.httpUrl());

            kafka = KafkaBroker.start(config.home().resolve("kafka"), config.kafkaPort(), config.kafkaControllerPort());
            out.println("✓ Kafka ready         " + kafka.bootstrapServers());

            Settings wired = settings.with(Map.of(
                    "SLUICE_KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
                    "SLUICE_CLICKHOUSE_URL", clickHouse.httpUrl(),
                    "SLUICE_PROCESSOR_STATE_DIR", config.home().resolve("processor").toString(),
                    "SLUICE_GATEWAY_PORT", Integer.toString(config.gatewayPort())));
            processor = Processor.start(ProcessorConfig.from(wired));
            if (!processor.awaitRunning(PROCESSOR_START_TIMEOUT)) {
                throw new IllegalStateException("the processor did not start within "
                        + PROCESSOR_START_TIMEOUT.toSeconds() + " s (state " + processor.state() + "); see "
                        + config.logs().resolve("sluice.log"));
            }
            out.println("✓ Processor running   (state in " + config.home().resolve("processor") + ")");

            GatewayConfig gatewayConfig = GatewayConfig.from(wired);
            Gateway gateway = Gateway.start(gatewayConfig);
            out.println("✓ Gateway ready       http://" + gatewayConfig.host() + ":" + gateway.port());
            return new LocalStack(clickHouse, kafka, processor, gateway);
        } catch (RuntimeException | InterruptedException e) {
            closeQuietly(processor);
            closeQuietly(kafka);
            closeQuietly(clickHouse);
            throw e;
        }
    }

    public int gatewayPort() {
        return gateway.port();
    }

    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    public String clickHouseUrl() {
        return clickHouse.httpUrl();
    }

    @Override
    public void close() {
        closeQuietly(gateway);
        closeQuietly(processor);
        closeQuietly(kafka);
        closeQuietly(clickHouse);
    }

    private static void closeQuietly(AutoCloseable part) {
        if (part == null) {
            return;
        }
        try {
            part.close();
        } catch (Exception e) {
            System.err.println("while stopping " + part.getClass().getSimpleName() + ": " + e);
        }
    }
}
