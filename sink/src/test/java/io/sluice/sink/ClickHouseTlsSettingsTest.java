package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

class ClickHouseTlsSettingsTest {
    @Test
    void theCaFileIsReadFromItsSetting() {
        ClickHouseSettings settings = ClickHouseSettings.from(new Settings(Map.of(
                "SLUICE_CLICKHOUSE_URL", "https://clickhouse.internal:8443", "SLUICE_CLICKHOUSE_CA_FILE", "/etc/sluice/ca.pem")));
        assertEquals("/etc/sluice/ca.pem", settings.caFile());
    }

    @Test
    void withoutACaFileTheJvmTrustStoreApplies() {
        assertEquals("", ClickHouseSettings.from(new Settings(Map.of())).caFile());
    }

    @Test
    void aCaFileWithAPlainHttpUrlIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ClickHouseSettings.from(new Settings(Map.of(
                "SLUICE_CLICKHOUSE_URL", "http://clickhouse.internal:8123", "SLUICE_CLICKHOUSE_CA_FILE", "/etc/sluice/ca.pem"))));
        assertEquals("SLUICE_CLICKHOUSE_CA_FILE is set but SLUICE_CLICKHOUSE_URL=http://clickhouse.internal:8123 is not https://",
                refused.getMessage());
    }

    @Test
    void aMissingCaFileIsRefusedWhenTheClientIsBuilt() {
        ClickHouseSettings settings = new ClickHouseSettings("https://127.0.0.1:8443", "default", "", "sluice", 90, "/nonexistent/ca.pem");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ClickHouseClients.create(settings));
        assertEquals("SLUICE_CLICKHOUSE_CA_FILE=/nonexistent/ca.pem is not a readable file", refused.getMessage());
    }
}
