package io.sluice.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.TopicSetup;
import io.sluice.engines.Ports;
import io.sluice.gateway.GatewayMain;
import io.sluice.processor.ProcessorMain;
import io.sluice.processor.ProcessorConfig;
import io.sluice.projects.ProjectAdmin;
import io.sluice.replay.Replay;
import io.sluice.replay.ReplayRequest;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import io.sluice.stack.DemoProject;
import io.sluice.stack.LocalStack;
import io.sluice.stack.StackConfig;

/**
 * {@code ./sluice}: the one command for running and operating Sluice. Exit codes: 0 done,
 * 1 failed (the message says why), 2 called wrongly (the usage is printed).
 */
public final class SluiceCli {
    static final String USAGE = """
            usage: ./sluice <command> [options]

              dev [--reset]                       run everything locally (Kafka, ClickHouse, processor, gateway);
                                                  data in .sluice/ ($SLUICE_HOME); --reset wipes it first
              projects create --name NAME [--rate N --burst M] [--json]
                                                  create a project; prints its token and private key (shown once)
              projects list [--json]              every project (no secrets)
              projects show TOKEN [--json]        one project: keys (ids, expiry), quota, state
              projects rotate-key TOKEN [--grace 24h] [--json]
                                                  a new key; the old ones keep working for the grace period
              projects revoke-key TOKEN KEY_ID    remove a key at once
              projects disable TOKEN | enable TOKEN
              projects set-quota TOKEN --rate N [--burst M] [--endpoint transaction|project]
                                                  (projects commands take --bootstrap-server HOST:PORT)
              schema apply [--clickhouse-url URL] create or update Sluice's ClickHouse tables
              replay --from ISO_TIME [--to ISO_TIME] [--project TOKEN] [--what history|errors|aggregates|all] [--dry-run]
                                                  rebuild ClickHouse rows of that event-time range from Kafka;
                                                  idempotent: rows already there stay single, safe to run twice
              config                              print every setting with its default (markdown)
              send-test-event --token T --key K [--url http://127.0.0.1:8080]
                                                  send one error and one transaction, confirm both reach ClickHouse
              stats --project TOKEN [--since 1h]  traffic per minute, 2xx–5xx distribution, last requests
              bench [--seconds 10] [--profile]    measure gateway, Kafka and processor against ceilings measured
                                                  in the same run (needs wrk; installs it with apt-get as root);
                                                  --profile records JFR of gateway and processor in bench-results/
              gateway                             run only the gateway (configured by SLUICE_* variables)
              processor                           run only the processor (configured by SLUICE_* variables)
              help                                this text

            Configuration: SLUICE_* environment variables, see README.md.""";

    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    SluiceCli(Settings settings, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] argv) {
        String command = argv.length == 0 ? "help" : argv[0];
        Logging.configure(command, Settings.fromEnvironment());
        int exitCode = new SluiceCli(Settings.fromEnvironment(), System.out, System.err).run(argv);
        if (exitCode != 0 || !command.equals("dev") && !command.equals("gateway") && !command.equals("processor")) {
            System.exit(exitCode);
        }
    }

    int run(String[] argv) {
        try {
            Args args = Args.parse(argv, Set.of("json", "reset", "help", "dry-run", "profile"));
            String command = args.positional(0) == null ? "help" : args.positional(0);
            switch (command) {
                case "dev" -> dev(args);
                case "projects" -> projects(args);
                case "schema" -> schema(args);
                case "replay" -> replay(args);
                case "bench" -> {
                    try {
                        new io.sluice.bench.Bench(out, Integer.parseInt(args.option("seconds", "10")), args.flag("profile")).run();
                    } catch (NumberFormatException e) {
                        throw new Args.UsageException("--seconds is a whole number");
                    } catch (Exception e) {
                        if (e instanceof RuntimeException runtime) {
                            throw runtime;
                        }
                        throw new IllegalStateException("the benchmark failed: " + e.getMessage(), e);
                    }
                }
                case "send-test-event" -> {
                    ClickHouseSettings clickHouse = clickHouse(args);
                    try (var client = ClickHouseClients.create(clickHouse)) {
                        boolean passed = new TestEventCommand(client, clickHouse.database(), out)
                                .run(args.option("url", "http://127.0.0.1:" + settings.get(io.sluice.gateway.GatewayConfig.PORT)),
                                        args.required("token"), args.required("key"));
                        return passed ? 0 : 1;
                    }
                }
                case "stats" -> {
                    ClickHouseSettings clickHouse = clickHouse(args);
                    try (var client = ClickHouseClients.create(clickHouse)) {
                        new StatsCommand(client, clickHouse.database(), out)
                                .run(args.required("project"), parseSince(args.option("since", "1h")));
                    }
                }
                case "gateway" -> GatewayMain.main(new String[0]);
                case "processor" -> ProcessorMain.main(new String[0]);
                case "config" -> out.print(ConfigurationTable.markdown());
                case "help" -> out.println(USAGE);
                default -> throw new Args.UsageException("unknown command '" + command + "'");
            }
            return 0;
        } catch (Args.UsageException e) {
            err.println("sluice: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (ProjectAdmin.UnknownProjectException | ProjectAdmin.UnknownKeyException e) {
            err.println("sluice: " + e.getMessage());
            return 1;
        } catch (Ports.PortTakenException e) {
            err.println("sluice: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (RuntimeException e) {
            err.println("sluice: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            return 1;
        }
    }

    private void dev(Args args) throws InterruptedException {
        StackConfig config = StackConfig.from(settings);
        if (args.flag("reset")) {
            try {
                io.sluice.engines.Directories.deleteRecursively(config.home());
            } catch (IOException e) {
                throw new IllegalStateException("cannot wipe " + config.home() + ": " + e.getMessage(), e);
            }
            out.println("· wiped " + config.home());
        }
        out.println("Starting Sluice locally (data in " + config.home() + ", logs in " + config.logs() + ")");
        LocalStack stack = new LocalStack(config, settings, out);
        CountDownLatch stopped = new CountDownLatch(1);
        // Registered before starting, so Ctrl-C halfway through start stops what already runs.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("\nStopping Sluice…");
            stack.close();
            out.println("✓ stopped; data kept in " + config.home());
            stopped.countDown();
        }, "sluice-dev-shutdown"));
        stack.start();
        DemoProject demo = DemoProject.ensure(config.home(), stack.kafkaBootstrapServers(),
                KafkaSettings.from(settings).topics().projects());
        out.println();
        out.println("Sluice is running. Ctrl-C stops everything; logs in " + config.logs() + ".");
        out.println();
        demo.printTryIt(out, stack.gatewayPort());
        stopped.await();
    }

    private void projects(Args args) {
        Settings effective = args.options().containsKey("bootstrap-server")
                ? settings.with(Map.of(KafkaSettings.BOOTSTRAP_SERVERS.name(), args.option("bootstrap-server", "")))
                : settings;
        KafkaSettings kafka = KafkaSettings.from(effective);
        TopicSetup.ensureTopics(kafka);
        try (ProjectAdmin admin = new ProjectAdmin(kafka.bootstrapServers(), kafka.topics().projects())) {
            new ProjectsCommand(admin, out).run(args);
        }
    }

    private void schema(Args args) {
        if (!"apply".equals(args.positional(1))) {
            throw new Args.UsageException("schema needs an action: apply");
        }
        Settings effective = args.options().containsKey("clickhouse-url")
                ? settings.with(Map.of(ClickHouseSettings.URL.name(), args.option("clickhouse-url", "")))
                : settings;
        ClickHouseSettings clickHouse = ClickHouseSettings.from(effective);
        try (var client = ClickHouseClients.create(clickHouse)) {
            var applied = SchemaMigrations.apply(client, clickHouse);
            out.println(applied.isEmpty() ? "schema is up to date (" + clickHouse + ")"
                    : "applied " + String.join(", ", applied) + " (" + clickHouse + ")");
        }
    }

    private ClickHouseSettings clickHouse(Args args) {
        return ClickHouseSettings.from(args.options().containsKey("clickhouse-url")
                ? settings.with(Map.of(ClickHouseSettings.URL.name(), args.option("clickhouse-url", "")))
                : settings);
    }

    private static java.time.Duration parseSince(String text) {
        try {
            return Settings.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException("--since is a duration such as 15m, 1h or 7d, not " + text);
        }
    }

    private void replay(Args args) {
        ReplayRequest request;
        try {
            request = new ReplayRequest(Instant.parse(args.required("from")),
                    args.options().containsKey("to") ? Instant.parse(args.option("to", "")) : Instant.now().plusSeconds(60),
                    args.option("project", null), ReplayRequest.What.parse(args.option("what", "all")), args.flag("dry-run"));
        } catch (java.time.format.DateTimeParseException e) {
            throw new Args.UsageException("--from and --to are ISO 8601 times such as 2026-11-22T10:00:00Z: " + e.getParsedString());
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        ProcessorConfig config = ProcessorConfig.from(settings);
        try (var client = ClickHouseClients.create(config.clickHouse())) {
            new Replay(config.kafka().bootstrapServers(), config.kafka().topics(), config.eventTimeHorizon(), client,
                    config.clickHouse(), out).run(request);
        }
    }
}
