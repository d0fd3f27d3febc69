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
import io.sluice.processor.ProcessorService;
import io.sluice.processor.ProcessorConfig;

/**
 * The whole system on one machine: ClickHouse (child process), a Kafka broker, the processor and
 * the gateway (this JVM), with all data under {@link StackConfig#home()}. Started in that order,
 * stopped in reverse; a restart on the same home keeps the data.
 */
public final class LocalStack implements AutoCloseable {
    private static final Duration PROCESSOR_START_TIMEOUT = Duration.ofSeconds(120);

    private final StackConfig config;
    private final Settings settings;
    private final PrintStream out;
    // Set as each part starts; close() stops whatever has started, even halfway through start().
    private volatile ClickHouseServer clickHouse;
    private volatile KafkaBroker kafka;
    private volatile ProcessorService processor;
    private volatile Gateway gateway;

    /**
     * @param settings the environment: component settings (SLUICE_*) apply to the stack's parts
     */
    public LocalStack(StackConfig config, Settings settings, PrintStream out) {
        this.config = config;
        this.settings = settings;
        this.out = out;
    }

    /** Starts everything, printing each part as it becomes ready. */
    public LocalStack start() throws InterruptedException {
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
                    "SLUICE_PROCESSOR_INSTANCE_ID", "local-stack",
                    "SLUICE_GATEWAY_PORT", Integer.toString(config.gatewayPort())));
            processor = ProcessorService.start(ProcessorConfig.from(wired));
            if (!processor.awaitRunning(PROCESSOR_START_TIMEOUT)) {
                throw new IllegalStateException("the processor did not start within "
                        + PROCESSOR_START_TIMEOUT.toSeconds() + " s (state " + processor.state() + "); see "
                        + config.logs().resolve("sluice.log"));
            }
            out.println("✓ Processor running   (state in " + config.home().resolve("processor") + ")");

            GatewayConfig gatewayConfig = GatewayConfig.from(wired);
            gateway = Gateway.start(gatewayConfig);
            out.println("✓ Gateway ready       http://" + gatewayConfig.host() + ":" + gateway.port());
            return this;
        } catch (RuntimeException | InterruptedException e) {
            close();
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

    /** Stops what has started, gateway first; safe to call again, and from a shutdown hook. */
    @Override
    public synchronized void close() {
        closeQuietly(gateway);
        gateway = null;
        closeQuietly(processor);
        processor = null;
        closeQuietly(kafka);
        kafka = null;
        closeQuietly(clickHouse);
        clickHouse = null;
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
