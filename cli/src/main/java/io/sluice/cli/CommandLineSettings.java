package io.sluice.cli;

import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.sink.ClickHouseSettings;

/** The environment's settings with what a command line overrides: {@code --clickhouse-url}, {@code --bootstrap-server}. */
final class CommandLineSettings {
    private CommandLineSettings() {
    }

    static ClickHouseSettings clickHouse(Settings settings, Args args) {
        return ClickHouseSettings.from(override(settings, args, "clickhouse-url", ClickHouseSettings.URL.name()));
    }

    static KafkaSettings kafka(Settings settings, Args args) {
        return KafkaSettings.from(override(settings, args, "bootstrap-server", KafkaSettings.BOOTSTRAP_SERVERS.name()));
    }

    private static Settings override(Settings settings, Args args, String option, String setting) {
        return args.options().containsKey(option) ? settings.with(Map.of(setting, args.option(option, ""))) : settings;
    }
}
