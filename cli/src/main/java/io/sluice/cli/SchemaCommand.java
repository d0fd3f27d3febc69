package io.sluice.cli;

import java.io.PrintStream;

import io.sluice.config.Settings;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.SchemaMigrations;

/** {@code ./sluice schema apply}: creates or updates Sluice's ClickHouse tables. */
final class SchemaCommand implements Command {
    private final Settings settings;
    private final PrintStream out;

    SchemaCommand(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    @Override
    public int run(Args args) {
        if (!"apply".equals(args.positional(1))) {
            throw new Args.UsageException("schema needs an action: apply");
        }
        ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, args);
        try (var client = ClickHouseClients.create(clickHouse)) {
            var applied = SchemaMigrations.apply(client, clickHouse);
            out.println(applied.isEmpty() ? "schema is up to date (" + clickHouse + ")"
                    : "applied " + String.join(", ", applied) + " (" + clickHouse + ")");
        }
        return 0;
    }
}
