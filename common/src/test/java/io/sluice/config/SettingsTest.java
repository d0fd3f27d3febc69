package io.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SettingsTest {
    private static final Setting TIMEOUT = new Setting("SLUICE_TEST_TIMEOUT", "5s", "A test timeout.");
    private static final Setting PORT = new Setting("SLUICE_TEST_PORT", "8080", "A test port.");
    private static final Setting SWITCH = new Setting("SLUICE_TEST_SWITCH", "true", "A test switch.");

    @Test
    void anUnsetSettingTakesItsDefault() {
        assertEquals(Duration.ofSeconds(5), new Settings(Map.of()).getDuration(TIMEOUT));
    }

    @Test
    void aBlankValueCountsAsUnset() {
        assertEquals(8080, new Settings(Map.of("SLUICE_TEST_PORT", " ")).getInt(PORT));
    }

    @Test
    void durationsTakeMillisecondsToDays() {
        assertEquals(Duration.ofMillis(250), Settings.parseDuration("250ms"));
        assertEquals(Duration.ofMinutes(15), Settings.parseDuration("15m"));
        assertEquals(Duration.ofHours(24), Settings.parseDuration("24h"));
        assertEquals(Duration.ofDays(7), Settings.parseDuration("7d"));
    }

    @Test
    void anUnparsableValueNamesTheSettingAndWhatItExpects() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of("SLUICE_TEST_PORT", "eighty")).getInt(PORT));
        assertEquals("SLUICE_TEST_PORT=eighty is not a whole number (A test port.)", error.getMessage());
    }

    @Test
    void aNumberOutOfItsRangeNamesTheSettingAndTheRange() {
        Setting days = new Setting("SLUICE_TEST_DAYS", "90", "Days kept.").between(1, 18250);
        var error = assertThrows(IllegalArgumentException.class, () -> new Settings(Map.of("SLUICE_TEST_DAYS", "0")).getInt(days));
        assertEquals("SLUICE_TEST_DAYS=0 is not between 1 and 18250 (Days kept.)", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Settings(Map.of("SLUICE_TEST_DAYS", "-1")).getLong(days));
        assertThrows(IllegalArgumentException.class, () -> new Settings(Map.of("SLUICE_TEST_DAYS", "18251")).getInt(days));
        assertEquals(1, new Settings(Map.of("SLUICE_TEST_DAYS", "1")).getInt(days));
        assertEquals(18250, new Settings(Map.of("SLUICE_TEST_DAYS", "18250")).getInt(days));
    }

    @Test
    void aFractionRefusesZeroNaNAndInfinity() {
        Setting share = new Setting("SLUICE_TEST_SHARE", "1.0", "A share.").between(0.001, 1);
        for (String value : new String[] {"0", "-0.5", "NaN", "Infinity", "1.5"}) {
            assertThrows(IllegalArgumentException.class, () -> new Settings(Map.of("SLUICE_TEST_SHARE", value)).getDouble(share), value);
        }
        assertEquals(0.25, new Settings(Map.of("SLUICE_TEST_SHARE", "0.25")).getDouble(share));
    }

    @Test
    void aSettingWithoutARangeTakesAnyNumber() {
        assertEquals(-5, new Settings(Map.of("SLUICE_TEST_PORT", "-5")).getInt(PORT));
        assertEquals("", PORT.range());
    }

    @Test
    void settingNamesAreSluiceEnvironmentVariables() {
        assertThrows(IllegalArgumentException.class, () -> new Setting("port", "1", "no prefix"));
    }

    @Test
    void aPrefixListsItsNonBlankValuesByTheRestOfTheirNames() {
        Settings settings = new Settings(Map.of("SLUICE_X_A_B", "1", "SLUICE_X_C", " ", "SLUICE_Y", "2", "SLUICE_X_", "3"));
        assertEquals(Map.of("A_B", "1"), settings.withPrefix("SLUICE_X_"));
    }

    @Test
    void minInsyncReplicasIsTwoWhereThereAreTwoReplicasUnlessSet() {
        assertEquals(1, Topics.from(new Settings(Map.of())).effectiveMinInsyncReplicas());
        assertEquals(2, Topics.from(new Settings(Map.of("SLUICE_TOPIC_REPLICATION_FACTOR", "3"))).effectiveMinInsyncReplicas());
        assertEquals(3, Topics.from(new Settings(Map.of("SLUICE_TOPIC_REPLICATION_FACTOR", "3",
                "SLUICE_TOPIC_MIN_INSYNC_REPLICAS", "3"))).effectiveMinInsyncReplicas());
    }

    @Test
    void minInsyncReplicasAboveTheReplicationFactorIsRefused() {
        var error = assertThrows(IllegalArgumentException.class, () -> Topics.from(new Settings(Map.of(
                "SLUICE_TOPIC_REPLICATION_FACTOR", "2", "SLUICE_TOPIC_MIN_INSYNC_REPLICAS", "3"))));
        assertTrue(error.getMessage().startsWith("SLUICE_TOPIC_MIN_INSYNC_REPLICAS=3 must be between 0"), error.getMessage());
    }

    @Test
    void aSwitchOtherThanTrueOrFalseIsRefusedNamingTheSetting() {
        var error = assertThrows(IllegalArgumentException.class,
                () -> new Settings(Map.of("SLUICE_TEST_SWITCH", "no")).getBoolean(SWITCH));
        assertEquals("SLUICE_TEST_SWITCH=no is not true or false (A test switch.)", error.getMessage());
    }
}
