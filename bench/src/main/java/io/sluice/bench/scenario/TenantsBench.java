package io.sluice.bench.scenario;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.engines.Directories;
import io.sluice.engines.KafkaBroker;
import io.sluice.engines.Ports;
import io.sluice.processor.ProcessorConfig;

/**
 * {@code ./sluice bench --tenants}: only the huge-tenant stage of the bench ({@link HugeTenant}), on a
 * Kafka broker of its own: the processor's rate with one tenant at 90% of the traffic against
 * evenly spread tenants, and how many tasks did the counting.
 */
public final class TenantsBench {
    private final PrintStream out;

    public TenantsBench(PrintStream out) {
        this.out = out;
    }

    public void run() throws Exception {
        Path work = Files.createTempDirectory("sluice-tenants-");
        List<Integer> ports = Ports.free(2);
        out.println("· starting Kafka in " + work);
        try (KafkaBroker kafka = KafkaBroker.start(work.resolve("kafka"), ports.get(0), ports.get(1))) {
            Settings settings = Settings.fromEnvironment().with(Map.of(KafkaSettings.BOOTSTRAP_SERVERS.name(), kafka.bootstrapServers(),
                    ProcessorConfig.STATE_DIR.name(), work.resolve("processor").toString(), Topics.PARTITIONS.name(), "4"));
            ProcessorConfig processor = ProcessorConfig.from(settings);
            out.println("· the processor's own topology: one tenant at 90% of the traffic, then as many transactions over "
                    + HugeTenant.SMALL_PROJECTS + " tenants evenly (" + HugeTenant.RECORDS + " each)");
            List<HugeTenant.Result> results = HugeTenant.measure(processor, HugeTenant.RECORDS, work);
            out.println();
            out.printf("%-34s %12s%n", "run", "records/s");
            HugeTenant.print(results, processor.kafka().topics().partitions(), out);
        } finally {
            Directories.deleteRecursively(work);
        }
    }
}
