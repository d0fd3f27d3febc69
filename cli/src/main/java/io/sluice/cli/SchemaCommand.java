package io.sluice.cli;

import java.io.PrintStream;

import io.sluice.config.Settings;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sluice schema apply}: creates or updates Sluice's ClickHouse tables. */
@Command(name = "schema", description = "Sluice's ClickHouse tables.")
final class SchemaCommand extends CliCommand {
    @Override
    public Integer call() {
        throw new UsageException("schema needs an action: apply");
    }

    @Command(name = "apply", description = "Create or update Sluice's ClickHouse tables.")
    static final class Apply extends CliCommand {
        private final Settings settings;
        private final PrintStream out;
        @Option(names = "--clickhouse-url", paramLabel = "URL", description = "ClickHouse (default $SLUICE_CLICKHOUSE_URL).")
        private String clickHouseUrl;

        Apply(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        @Override
        public Integer call() {
            ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, clickHouseUrl);
            try (var client = ClickHouseClients.create(clickHouse)) {
                var applied = SchemaMigrations.apply(client, clickHouse);
                out.println(applied.isEmpty() ? "schema is up to date (" + clickHouse + ")"
                        : "applied " + String.join(", ", applied) + " (" + clickHouse + ")");
            }
            return 0;
        }
    }
}
