package io.sluice.stack;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.sluice.bench.Bench;
import io.sluice.bench.dashboard.DashboardBench;
import io.sluice.bench.run.ResultFiles;
import io.sluice.bench.scenario.ManyProjects;
import io.sluice.bench.scenario.Soak;
import io.sluice.bench.scenario.TenantsBench;
import io.sluice.cli.CliCommand;
import io.sluice.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sluice bench [--seconds 10] [--profile] [--producer-experiments]}, or {@code --soak[=10m]}, {@code --projects[=N]}, {@code --tenants}, {@code --dashboards}. */
@Command(name = "bench", description = {"Measure gateway, Kafka and processor against ceilings measured in the same run",
        "(needs wrk; asks before installing it with apt-get as root)."})
final class BenchCommand extends CliCommand {
    private final PrintStream out;
    @Option(names = "--seconds", paramLabel = "N", defaultValue = "10", description = "How long each measurement runs (default ${DEFAULT-VALUE}).")
    private String seconds;
    @Option(names = "--profile", description = "Record JFR of gateway and processor in bench-results/.")
    private boolean profile;
    @Option(names = "--producer-experiments", description = "Also measure the gateway at 64 and 256 connections with other "
            + "producer settings (linger 0 ms, fewer requests in flight); adds about a minute per variant.")
    private boolean producerExperiments;
    @Option(names = "--yes", description = "Install what is missing (wrk, with apt-get as root) without asking.")
    private boolean yes;
    @Option(names = "--soak", arity = "0..1", fallbackValue = "10m", paramLabel = "DURATION", description = {
            "Instead: the gateway under every attack at once (strangers who never read, slow uploads, envelope bombs, "
                    + "aimed event ids) while a tenant sends steadily, for DURATION (default 10m); prints the tenant's "
                    + "success rate and p99 and the gateway's heap and direct memory, and fails when a bound is broken."})
    private String soak;
    @Option(names = "--projects", arity = "0..1", fallbackValue = "1000000", paramLabel = "N", description = {
            "Instead: write N projects (default 1000000) through ProjectAdmin, then start a gateway with -Xmx"
                    + "256m and print how long it took to become ready and its heap."})
    private Integer projects;
    @Option(names = "--dashboards", description = "Only the dashboard stage: demo-data at each scale, then every ClickHouse panel "
            + "and stats' queries timed (24 h, 30 days, the huge tenant, median of 5) and the storage per million requests.")
    private boolean dashboards;
    @Option(names = "--tenants", description = "Only the huge-tenant stage: the processor's rate with one tenant at 90%% of "
            + "the traffic against 100 tenants evenly, and how many tasks did the counting (Kafka only, a few minutes).")
    private boolean tenants;
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
        java.util.Optional<String> unsupported = io.sluice.engines.LocalPlatform.current().unsupported();
        if (unsupported.isPresent()) {
            out.println("✗ " + unsupported.get());
            return 2;
        }
        int duration;
        try {
            duration = Integer.parseInt(seconds);
        } catch (NumberFormatException e) {
            throw new UsageException("--seconds is a whole number");
        }
        try {
            if (projects != null) {
                if (projects < 1) {
                    throw new UsageException("--projects takes a number of projects, 1 or more");
                }
                new ManyProjects(out, projects, files).run();
                return 0;
            }
            if (dashboards) {
                new DashboardBench(out, new CliDemoWorkload()).run(scales, clickHouseUrl, reuse);
                return 0;
            }
            if (tenants) {
                new TenantsBench(out).run();
                return 0;
            }
            if (soak != null) {
                java.time.Duration soakFor;
                try {
                    soakFor = io.sluice.config.Settings.parseDuration(soak);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--soak takes a duration such as 10m or 90s");
                }
                new Soak(out, soakFor, files).run();
                return 0;
            }
            if (!wrkInstalled() && !InstallConsent.given("wrk is not installed: install it with apt-get (as root)?", yes,
                    stdinIsTerminal(), new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out)) {
                throw new IllegalStateException("the bench needs wrk: apt-get install wrk (as root), or ./sluice bench --yes to install it");
            }
            new Bench(out, duration, profile, producerExperiments, files).run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the benchmark failed: " + e.getMessage(), e);
        }
        return 0;
    }

    /** Java 22+ gives a Console even when stdin is redirected; its isTerminal() then says false. */
    private static boolean stdinIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) { // before Java 22: a console means a terminal
            return true;
        }
    }

    private static boolean wrkInstalled() throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", "command -v wrk").start().waitFor() == 0;
    }
}
