package io.sluice.cli;

import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.sink.ClickHouseSettings;

/** The environment's settings with what a command line overrides: {@code --clickhouse-url}, {@code --bootstrap-server}. */
public final class CommandLineSettings {
    private CommandLineSettings() {
    }

    /** @param url {@code --clickhouse-url}, null when not given */
    public static ClickHouseSettings clickHouse(Settings settings, String url) {
        return ClickHouseSettings.from(override(settings, url, ClickHouseSettings.URL.name()));
    }

    /** @param bootstrapServers {@code --bootstrap-server}, null when not given */
    public static KafkaSettings kafka(Settings settings, String bootstrapServers) {
        return KafkaSettings.from(override(settings, bootstrapServers, KafkaSettings.BOOTSTRAP_SERVERS.name()));
    }

    private static Settings override(Settings settings, String value, String setting) {
        return value == null ? settings : settings.with(Map.of(setting, value));
    }
}
