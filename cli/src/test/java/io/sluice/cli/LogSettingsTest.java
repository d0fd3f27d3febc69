package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.sluice.cli.LogSettings.Format;
import io.sluice.cli.LogSettings.LogConfig;
import io.sluice.config.Settings;

class LogSettingsTest {
    private static final Settings NONE = new Settings(Map.of());

    @Test
    void serversLogFromInfoAsTextToStderr() {
        LogConfig config = LogSettings.from(NONE, "gateway", null);
        assertEquals(Format.TEXT, config.format());
        assertEquals("info", config.rootLevel());
        assertNull(config.file());
        assertEquals("info", LogSettings.from(NONE, "processor", null).rootLevel());
        assertEquals("info", LogSettings.from(NONE, "dev", null).rootLevel());
    }

    @Test
    void oneShotCommandsLogOnlyWarnings() {
        assertEquals("warn", LogSettings.from(NONE, "projects", null).rootLevel());
    }

    @Test
    void theAuditLogIsAtInfoForEveryCommandByDefault() {
        assertEquals("info", LogSettings.from(NONE, "projects", null).levels().get("io.sluice.audit"));
        assertEquals("info", LogSettings.from(NONE, "gateway", null).levels().get("io.sluice.audit"));
        assertEquals("info", LogSettings.from(new Settings(Map.of("SLUICE_LOG_LEVEL", "error")), "projects", null)
                .levels().get("io.sluice.audit"));
    }

    @Test
    void theAuditLogsLevelCanBeSetPerLogger() {
        assertEquals("off", LogSettings.from(new Settings(Map.of("SLUICE_LOG_LEVELS", "io.sluice.audit=off")), "projects", null)
                .levels().get("io.sluice.audit"));
    }

    @Test
    void kafkaLogsAtWarnByDefault() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("org.apache.kafka", "warn");
        expected.put("kafka", "warn");
        expected.put("state.change.logger", "warn");
        expected.put("org.apache.kafka.clients.NetworkClient", "error");
        expected.put("io.sluice.audit", "info");
        assertEquals(expected, LogSettings.from(NONE, "gateway", null).levels());
    }

    @Test
    void theLevelAndLevelsPerLoggerComeFromTheEnvironment() {
        LogConfig config = LogSettings.from(new Settings(Map.of("SLUICE_LOG_LEVEL", "ERROR",
                "SLUICE_LOG_LEVELS", " io.sluice.gateway=debug, org.apache.kafka=info ,")), "projects", null);
        assertEquals("error", config.rootLevel());
        assertEquals("debug", config.levels().get("io.sluice.gateway"));
        assertEquals("info", config.levels().get("org.apache.kafka"));
        assertEquals("error", config.levels().get("org.apache.kafka.clients.NetworkClient"));
    }

    @Test
    void jsonIsSelectedBySetting() {
        assertEquals(Format.JSON, LogSettings.from(new Settings(Map.of("SLUICE_LOG_FORMAT", "json")), "gateway", null).format());
    }

    @Test
    void anUnknownFormatIsRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogSettings.from(new Settings(Map.of("SLUICE_LOG_FORMAT", "xml")), "gateway", null));
        assertEquals("SLUICE_LOG_FORMAT is text or json, not xml", e.getMessage());
    }

    @Test
    void anUnknownLevelIsRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogSettings.from(new Settings(Map.of("SLUICE_LOG_LEVELS", "io.sluice=loud")), "gateway", null));
        assertEquals("SLUICE_LOG_LEVELS levels are trace, debug, info, warn, error or off: not loud", e.getMessage());
    }

    @Test
    void anEntryWithoutALoggerIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LogSettings.from(new Settings(Map.of("SLUICE_LOG_LEVELS", "debug")), "gateway", null));
        assertEquals("SLUICE_LOG_LEVELS is logger=level[,logger=level…], such as io.sluice.gateway=debug,org.apache.kafka=info: not debug",
                e.getMessage());
    }
}
