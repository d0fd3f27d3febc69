package io.sluice.sink;

import java.util.List;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/** Where ClickHouse is and how long it keeps rows. */
public record ClickHouseSettings(String url, String user, String password, String database, int retentionDays) {
    public static final Setting URL = new Setting("SLUICE_CLICKHOUSE_URL", "http://127.0.0.1:8123",
            "ClickHouse HTTP endpoint.");
    public static final Setting USER = new Setting("SLUICE_CLICKHOUSE_USER", "default", "ClickHouse user.");
    public static final Setting PASSWORD = new Setting("SLUICE_CLICKHOUSE_PASSWORD", "",
            "ClickHouse password (never logged).");
    public static final Setting DATABASE = new Setting("SLUICE_CLICKHOUSE_DATABASE", "sluice",
            "Database that holds Sluice's tables.");
    public static final Setting RETENTION_DAYS = new Setting("SLUICE_CLICKHOUSE_RETENTION_DAYS", "90",
            "TTL of rows in days, applied when a table is created.");

    public static final List<Setting> SETTINGS = List.of(URL, USER, PASSWORD, DATABASE, RETENTION_DAYS);

    public static ClickHouseSettings from(Settings settings) {
        String database = settings.get(DATABASE);
        if (!database.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException(DATABASE.name() + "=" + database + " is not a plain identifier");
        }
        return new ClickHouseSettings(settings.get(URL), settings.get(USER), settings.get(PASSWORD), database,
                settings.getInt(RETENTION_DAYS));
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "ClickHouse " + url + " as " + user + ", database " + database;
    }
}
