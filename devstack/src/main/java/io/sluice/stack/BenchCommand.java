package io.sluice.stack;

import java.io.PrintStream;
import java.util.List;

import io.sluice.bench.Bench;
import io.sluice.bench.ResultFiles;
import io.sluice.cli.CliCommand;
import io.sluice.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sluice bench [--seconds 10] [--profile] [--producer-experiments]}. */
@Command(name = "bench", description = {"Measure gateway, Kafka and processor against ceilings measured in the same run",
        "(needs wrk; installs it with apt-get as root)."})
final class BenchCommand extends CliCommand {
    private final PrintStream out;
    @Option(names = "--seconds", paramLabel = "N", defaultValue = "10", description = "How long each measurement runs (default ${DEFAULT-VALUE}).")
    private String seconds;
    @Option(names = "--profile", description = "Record JFR of gateway and processor in bench-results/.")
    private boolean profile;
    @Option(names = "--producer-experiments", description = "Also measure the gateway at 64 and 256 connections with other "
            + "producer settings (linger 0 ms, fewer requests in flight); adds about a minute per variant.")
    private boolean producerExperiments;
    @Option(names = "--dashboards", description = "Only the dashboard stage: demo-data at each scale, then every ClickHouse panel "
            + "and stats' queries timed (24 h, 30 days, the huge tenant, median of 5) and the storage per million requests.")
    private boolean dashboards;
    @Option(names = "--scales", paramLabel = "N,M", defaultValue = "1,2", split = ",", description = "The dashboard stage's "
            + "demo-data scales (default ${DEFAULT-VALUE}).")
    private List<Double> scales;
    @Option(names = "--clickhouse-url", paramLabel = "URL", description = "The dashboard stage on this ClickHouse (default: one of its own).")
    private String clickHouseUrl;
    @Option(names = "--reuse", description = "The dashboard stage keeps a scale's database that already holds demo data.")
    private boolean reuse;
    private final ResultFiles files;

    /** @param files where the run writes; its log is already the one this JVM logs to */
    BenchCommand(PrintStream out, ResultFiles files) {
        this.out = out;
        this.files = files;
    }

    @Override
    public Integer call() {
        int duration;
        try {
            duration = Integer.parseInt(seconds);
        } catch (NumberFormatException e) {
            throw new UsageException("--seconds is a whole number");
        }
        try {
            if (dashboards) {
                new DashboardBench(out).run(scales, clickHouseUrl, reuse);
                return 0;
            }
            new Bench(out, duration, profile, producerExperiments, files).run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the benchmark failed: " + e.getMessage(), e);
        }
        return 0;
    }
}
