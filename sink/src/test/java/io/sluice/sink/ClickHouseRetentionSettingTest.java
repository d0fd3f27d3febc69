package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;

/** A TTL of zero or fewer days would expire acknowledged rows as they are inserted; one past 2106 would wrap into the past. */
class ClickHouseRetentionSettingTest {
    @Test
    void zeroOrNegativeRetentionIsRefusedAtStartup() {
        for (String days : new String[] {"0", "-1"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> ClickHouseSettings.from(new Settings(Map.of("SLUICE_CLICKHOUSE_RETENTION_DAYS", days))));
            assertEquals("SLUICE_CLICKHOUSE_RETENTION_DAYS=" + days + " is not between 1 and 18250 (TTL of rows in days, "
                    + "applied when a table is created.)", refused.getMessage());
        }
    }

    @Test
    void retentionBeyondFiftyYearsIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> ClickHouseSettings.from(new Settings(Map.of("SLUICE_CLICKHOUSE_RETENTION_DAYS", "36500"))));
    }

    @Test
    void oneDayToFiftyYearsIsTaken() {
        assertEquals(1, ClickHouseSettings.from(new Settings(Map.of("SLUICE_CLICKHOUSE_RETENTION_DAYS", "1"))).retentionDays());
        assertEquals(18250, ClickHouseSettings.from(new Settings(Map.of("SLUICE_CLICKHOUSE_RETENTION_DAYS", "18250"))).retentionDays());
    }
}
