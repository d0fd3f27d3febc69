package io.sluice.sink;

import java.util.List;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/** Where ClickHouse is, how its certificate is checked, and how long it keeps rows. */
public record ClickHouseSettings(String url, String user, String password, String database, int retentionDays,
                                 String caFile) {
    public static final Setting URL = new Setting("SLUICE_CLICKHOUSE_URL", "http://127.0.0.1:8123",
            "ClickHouse HTTP endpoint; https://… for TLS.");
    public static final Setting USER = new Setting("SLUICE_CLICKHOUSE_USER", "default", "ClickHouse user.");
    public static final Setting PASSWORD = new Setting("SLUICE_CLICKHOUSE_PASSWORD", "",
            "ClickHouse password (never logged).");
    public static final Setting DATABASE = new Setting("SLUICE_CLICKHOUSE_DATABASE", "sluice",
            "Database that holds Sluice's tables.");
    /** Fifty years: a TTL further out would pass ClickHouse's DateTime range (2106) and wrap into the past. */
    static final int MAX_RETENTION_DAYS = 50 * 365;
    public static final Setting RETENTION_DAYS = new Setting("SLUICE_CLICKHOUSE_RETENTION_DAYS", "90",
            "TTL of rows in days, applied when a table is created.").between(1, MAX_RETENTION_DAYS);
    public static final Setting CA_FILE = new Setting("SLUICE_CLICKHOUSE_CA_FILE", "",
            "PEM file of the CA that signed ClickHouse's certificate (https:// URLs); empty: the JVM's trust store.");

    public static final List<Setting> SETTINGS = List.of(URL, USER, PASSWORD, DATABASE, RETENTION_DAYS, CA_FILE);

    public ClickHouseSettings {
        if (!caFile.isEmpty() && !url.regionMatches(true, 0, "https://", 0, 8)) {
            // A CA for a plain-text URL means the operator expected TLS and would not get it.
            throw new IllegalArgumentException(CA_FILE.name() + " is set but " + URL.name() + "=" + url + " is not https://");
        }
    }

    /** Plain HTTP, or HTTPS checked against the JVM's trust store. */
    public ClickHouseSettings(String url, String user, String password, String database, int retentionDays) {
        this(url, user, password, database, retentionDays, "");
    }

    public static ClickHouseSettings from(Settings settings) {
        String database = settings.get(DATABASE);
        if (!database.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException(DATABASE.name() + "=" + database + " is not a plain identifier");
        }
        return new ClickHouseSettings(settings.get(URL), settings.get(USER), settings.get(PASSWORD), database,
                settings.getInt(RETENTION_DAYS), settings.get(CA_FILE));
    }

    public boolean tls() {
        return url.regionMatches(true, 0, "https://", 0, 8);
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "ClickHouse " + url + " as " + user + ", database " + database + (caFile.isEmpty() ? "" : ", CA " + caFile);
    }
}
