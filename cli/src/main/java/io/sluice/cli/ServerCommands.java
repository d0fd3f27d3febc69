package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.cli.deadletters.DeadLettersCommand;
import io.sluice.cli.doctor.DoctorCommand;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.processor.ProcessorMain;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import picocli.AutoComplete;
import io.sluice.sink.SchemaMigrations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** The commands the server image runs, by name: everything but {@code dev} and {@code bench}. */
final class ServerCommands {
    private ServerCommands() {
    }

    /** @param usage what {@code help} prints */
    static Map<String, Object> create(Settings settings, PrintStream out, List<Setting> extraSettings, String usage) {
        Map<String, Object> commands = new LinkedHashMap<>();
        commands.put("projects", ProjectsCommand.create(settings, out));
        commands.put("schema", new CommandLine(new SchemaCommand()).addSubcommand(new SchemaCommand.Apply(settings, out)));
        commands.put("replay", new ReplayCommand(settings, out));
        commands.put("doctor", new DoctorCommand(settings, out));
        commands.put("dead-letters", DeadLettersCommand.create(settings, out));
        commands.put("send-test-event", new SendTestEventCommand(settings, out));
        commands.put("stats", new StatsCommand(settings, out));
        commands.put("demo-data", new DemoDataCommand(settings, out));
        commands.put("gateway", new GatewayCommand());
        commands.put("processor", new ProcessorCommand());
        commands.put("config", new ConfigCommand(out, extraSettings));
        commands.put("completion", new CompletionCommand(out));
        commands.put("help", new HelpCommand(out, usage));
        return commands;
    }

    /** {@code dev} or {@code bench} in the server image: says where to run it, whatever its arguments. */
    /** Hidden: the image's usage lists what the image runs. */
    @Command(description = "A developer command: run ./sluice in a source checkout.", hidden = true)
    static final class DeveloperOnlyCommand extends CliCommand {
        private final String name;
        @Unmatched
        private List<String> ignored = new ArrayList<>();

        DeveloperOnlyCommand(String name) {
            this.name = name;
        }

        @Override
        public Integer call() {
            throw new IllegalStateException(name + " is a developer command: run ./sluice in a source checkout");
        }
    }

    @Command(name = "gateway", description = "Run only the gateway (configured by SLUICE_* variables).")
    static final class GatewayCommand extends CliCommand implements LongRunning {
        @Override
        public Integer call() throws Exception {
            GatewayMain.main(new String[0]); // returns once it runs; its threads and shutdown hook keep it going
            return 0;
        }
    }

    @Command(name = "processor", description = "Run only the processor (configured by SLUICE_* variables).")
    static final class ProcessorCommand extends CliCommand implements LongRunning {
        @Override
        public Integer call() throws Exception {
            ProcessorMain.main(new String[0]);
            return 0;
        }
    }

    @Command(name = "config", description = "Print every setting with its default (markdown).")
    static final class ConfigCommand extends CliCommand {
        private final PrintStream out;
        private final List<Setting> extraSettings;

        ConfigCommand(PrintStream out, List<Setting> extraSettings) {
            this.out = out;
            this.extraSettings = extraSettings;
        }

        @Override
        public Integer call() {
            out.print(ConfigurationTable.markdown(extraSettings));
            return 0;
        }
    }

    /** {@code help}: the overview of every command; {@code help COMMAND...}: that command's own help. */
    @Command(name = "help", description = "List every command, or show one command's help.")
    static final class HelpCommand extends CliCommand {
        private final PrintStream out;
        private final String usage;
        @Spec
        private CommandSpec spec;
        @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "A command, such as: projects create.")
        private List<String> command = new ArrayList<>();

        HelpCommand(PrintStream out, String usage) {
            this.out = out;
            this.usage = usage;
        }

        @Override
        public Integer call() {
            if (command.isEmpty()) {
                out.println(usage);
                return 0;
            }
            CommandLine target = spec.parent().commandLine();
            for (String name : command) {
                target = target.getSubcommands().get(name);
                if (target == null) {
                    throw new UsageException("unknown command '" + String.join(" ", command) + "'");
                }
            }
            target.usage(out);
            return 0;
        }
    }

    /** {@code completion}: picocli's bash (and zsh) completion script for every command and option. */
    @Command(name = "completion", description = {"Print a bash completion script for ./sluice.",
            "Load it with: source <(./sluice completion)"})
    static final class CompletionCommand extends CliCommand {
        private final PrintStream out;
        @Spec
        private CommandSpec spec;

        CompletionCommand(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() {
            out.print(AutoComplete.bash("sluice", spec.root().commandLine()));
            return 0;
        }
    }

    @Command(name = "send-test-event", description = {"Send one error and one transaction, confirm both reach ClickHouse.",
            "Exit code 0 when both arrived, 1 otherwise."})
    static final class SendTestEventCommand extends CliCommand {
        private final Settings settings;
        private final PrintStream out;
        @Option(names = "--token", required = true, paramLabel = "TOKEN", description = "The project's token.")
        private String token;
        @Option(names = "--key", required = true, paramLabel = "KEY", description = "The project's private key.")
        private String key;
        @Option(names = "--url", paramLabel = "URL", description = "The gateway (default http://127.0.0.1:$SLUICE_GATEWAY_PORT).")
        private String url;
        @Option(names = "--clickhouse-url", paramLabel = "URL", description = "ClickHouse (default $SLUICE_CLICKHOUSE_URL).")
        private String clickHouseUrl;

        SendTestEventCommand(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        @Override
        public Integer call() throws InterruptedException {
            String gateway = url != null ? url : "http://127.0.0.1:" + settings.get(GatewayConfig.PORT);
            String projectToken = required("token", token);
            String projectKey = required("key", key);
            ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, clickHouseUrl);
            try (var client = ClickHouseClients.create(clickHouse)) {
                return new TestEventCheck(client, clickHouse.database(), out).run(gateway, projectToken, projectKey) ? 0 : 1;
            }
        }
    }

    @Command(name = "stats", description = {"Traffic per minute, status classes and codes, top routes (5xx, p99), errors, refusals",
            "and the last requests of a project."})
    static final class StatsCommand extends CliCommand {
        private final Settings settings;
        private final PrintStream out;
        @Option(names = "--project", required = true, paramLabel = "TOKEN", description = "The project's token.")
        private String project;
        @Option(names = "--since", paramLabel = "DURATION", defaultValue = "1h", description = "How far back, such as 15m, 1h or 7d (default ${DEFAULT-VALUE}).")
        private String since;
        @Option(names = "--json", description = "Print one JSON object per reading.")
        private boolean json;
        @Option(names = "--watch", description = "Read again every 5 seconds, until interrupted (Ctrl-C).")
        private boolean watch;
        @Option(names = "--clickhouse-url", paramLabel = "URL", description = "ClickHouse (default $SLUICE_CLICKHOUSE_URL).")
        private String clickHouseUrl;

        StatsCommand(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        @Override
        public Integer call() throws InterruptedException {
            ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, clickHouseUrl);
            String token = required("project", project);
            Duration range = since(since);
            try (var client = ClickHouseClients.create(clickHouse)) {
                StatsReport stats = new StatsReport(client, clickHouse.database(), out);
                do {
                    if (watch && !json) {
                        out.print("\033[H\033[2J"); // home, clear: redraw in place
                    }
                    stats.run(token, range, json);
                    if (watch) {
                        Thread.sleep(5_000);
                    }
                } while (watch);
            }
            return 0;
        }

        private static Duration since(String text) {
            try {
                return Settings.parseDuration(text);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--since is a duration such as 15m, 1h or 7d, not " + text);
            }
        }
    }

    @Command(name = "demo-data", description = {"Fill ClickHouse with synthetic traffic: at scale 1 a huge tenant with 50M requests",
            "in the last 24 hours and 1,000 projects with 30 days of traffic, errors included; every aggregate",
            "computed from the history it summarises. Replaces the demo rows of an earlier run."})
    static final class DemoDataCommand extends CliCommand {
        private final Settings settings;
        private final PrintStream out;
        @Option(names = "--scale", paramLabel = "N", defaultValue = "1", description = "Multiplies the volume (default ${DEFAULT-VALUE}; 0.01 for a quick look).")
        private String scale;
        @Option(names = "--json", description = "End with one JSON object: huge_project, small_project, scale, rows, seconds.")
        private boolean json;
        @Option(names = "--clickhouse-url", paramLabel = "URL", description = "ClickHouse (default $SLUICE_CLICKHOUSE_URL).")
        private String clickHouseUrl;

        DemoDataCommand(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        @Override
        public Integer call() {
            double volume;
            try {
                volume = Double.parseDouble(scale);
            } catch (NumberFormatException e) {
                throw new UsageException("--scale is a number such as 1, 2 or 0.01, not " + scale);
            }
            if (!(volume > 0) || volume > 100) {
                throw new UsageException("--scale is above 0 and at most 100, not " + scale);
            }
            ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, clickHouseUrl);
            try (var client = ClickHouseClients.create(clickHouse)) {
                SchemaMigrations.apply(client, clickHouse);
                DemoData.Summary summary = new DemoData(client, clickHouse.database(), out).fill(volume);
                out.printf("Demo data written in %.0f s: %,d transactions and %,d errors; look at project %s (huge) and %s (small)%n",
                        summary.took().toMillis() / 1000.0, summary.transactions(), summary.errors(), summary.hugeProject(),
                        summary.smallProject());
                if (json) {
                    out.println(DemoDataJson.of(summary));
                }
            }
            return 0;
        }
    }

    static String required(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new UsageException("--" + option + " is required");
        }
        return value;
    }
}
