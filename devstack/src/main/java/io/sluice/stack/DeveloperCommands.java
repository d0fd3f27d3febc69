package io.sluice.stack;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.bench.run.ResultFiles;
import io.sluice.cli.Extension;
import io.sluice.config.Setting;
import io.sluice.config.Settings;

/** {@code dev} and {@code bench}, and the local stack's settings for {@code ./sluice config}. */
public final class DeveloperCommands implements Extension {
    /** Named when the command line starts, so that the bench's log is in its results folder from the first line. */
    private final ResultFiles benchRun;

    public DeveloperCommands() {
        this(ResultFiles.forNewRun());
    }

    DeveloperCommands(ResultFiles benchRun) {
        this.benchRun = benchRun;
    }

    @Override
    public Map<String, Object> commands(Settings settings, PrintStream out) {
        Map<String, Object> commands = new LinkedHashMap<>();
        commands.put("dev", new DevCommand(settings, out));
        commands.put("bench", new BenchCommand(out, benchRun));
        return commands;
    }

    @Override
    public String usage() {
        return """
                  dev [--reset]                       run everything locally (Kafka, ClickHouse, processor, gateway);
                                                      data in .sluice/ ($SLUICE_HOME); --reset wipes it first
                  bench [--seconds 10] [--profile] [--yes]
                                                      measure gateway, Kafka and processor against ceilings measured
                                                      in the same run (needs wrk; asks before installing it with
                                                      apt-get as root, --yes installs without asking);
                                                      --profile records JFR of gateway and processor in bench-results/;
                                                      --producer-experiments also tries other gateway producer settings
                  bench --dashboards [--scales 1,2] [--clickhouse-url URL] [--reuse]
                                                      only times every dashboard panel and stats' queries on demo data
                                                      (24 h, 30 days; median of 5) and the storage per million requests;
                                                      --reuse keeps a scale's database that already holds demo data
                  bench --projects[=1000000]          only writes that many projects, then times a gateway's start
                                                      (-Xmx256m) and prints its heap
                  bench --tenants                     only the processor with one tenant at 90% of the traffic vs
                                                      100 even tenants, and how many tasks did the counting
                  bench --soak[=10m]                  the gateway under every attack at once while a tenant sends;
                                                      prints success rate, p99, heap and direct memory, checks bounds
                """;
    }

    @Override
    public List<Setting> settings() {
        return StackConfig.SETTINGS;
    }

    /**
     * {@code dev} logs everything into {@code logs/sluice.log}, and {@code bench} into its run's log in
     * {@code bench-results/}, so the terminal shows only progress (and the bench's tables).
     */
    @Override
    public Path logFile(String command, Settings settings) {
        if (command.equals("bench")) {
            return benchRun.log();
        }
        if (!command.equals("dev")) {
            return null;
        }
        Path logs = StackConfig.from(settings).logs();
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + logs, e);
        }
        return logs.resolve("sluice.log");
    }
}
