package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.GatewayMain;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorMain;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;

/** The commands the server image runs, by name: everything but {@code dev} and {@code bench}. */
final class ServerCommands {
    private ServerCommands() {
    }

    static Map<String, Command> create(Settings settings, PrintStream out, List<Setting> extraSettings) {
        Map<String, Command> commands = new LinkedHashMap<>();
        commands.put("projects", args -> projects(settings, out, args));
        commands.put("schema", new SchemaCommand(settings, out));
        commands.put("replay", new ReplayCommand(settings, out));
        commands.put("send-test-event", args -> sendTestEvent(settings, out, args));
        commands.put("stats", args -> stats(settings, out, args));
        commands.put("gateway", server(() -> GatewayMain.main(new String[0])));
        commands.put("processor", server(() -> ProcessorMain.main(new String[0])));
        commands.put("config", args -> {
            out.print(ConfigurationTable.markdown(extraSettings));
            return 0;
        });
        commands.put("help", args -> {
            out.println(Usage.TEXT);
            return 0;
        });
        for (String developerOnly : List.of("dev", "bench")) {
            commands.put(developerOnly, args -> {
                throw new IllegalStateException(developerOnly + " is a developer command: run ./sluice in a source checkout");
            });
        }
        return commands;
    }

    private static int projects(Settings settings, PrintStream out, Args args) {
        PublicUrl publicUrl = PublicUrl.from(settings); // a wrong SLUICE_PUBLIC_URL fails before any change
        KafkaSettings kafka = CommandLineSettings.kafka(settings, args);
        TopicSetup.ensureTopics(kafka);
        try (ProjectAdmin admin = new ProjectAdmin(kafka)) {
            new ProjectsCommand(admin, out, publicUrl).run(args);
        }
        return 0;
    }

    private static int sendTestEvent(Settings settings, PrintStream out, Args args) throws InterruptedException {
        ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, args);
        try (var client = ClickHouseClients.create(clickHouse)) {
            boolean passed = new TestEventCommand(client, clickHouse.database(), out)
                    .run(args.option("url", "http://127.0.0.1:" + settings.get(GatewayConfig.PORT)),
                            args.required("token"), args.required("key"));
            return passed ? 0 : 1;
        }
    }

    private static int stats(Settings settings, PrintStream out, Args args) {
        ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, args);
        try (var client = ClickHouseClients.create(clickHouse)) {
            new StatsCommand(client, clickHouse.database(), out).run(args.required("project"), since(args.option("since", "1h")));
        }
        return 0;
    }

    private static Duration since(String text) {
        try {
            return Settings.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException("--since is a duration such as 15m, 1h or 7d, not " + text);
        }
    }

    /** A server's main returns once it runs; its own threads and shutdown hook keep it going. */
    private static Command server(ServerMain main) {
        return new Command() {
            @Override
            public int run(Args args) throws Exception {
                main.start();
                return 0;
            }

            @Override
            public boolean keepsRunning() {
                return true;
            }
        };
    }

    @FunctionalInterface
    private interface ServerMain {
        void start() throws Exception;
    }
}
