package io.sluice.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/**
 * How the server logs, from {@code SLUICE_LOG_*}: text or one JSON object per line, a level for
 * everything and levels per logger. Read once at startup into a {@link LogConfig}.
 */
public final class LogSettings {
    public static final Setting FORMAT = new Setting("SLUICE_LOG_FORMAT", "text",
            "Log format: `text` (one line per event) or `json` (one JSON object per line, for log collectors).");
    public static final Setting LEVEL = new Setting("SLUICE_LOG_LEVEL", "",
            "Level of every logger (trace, debug, info, warn, error, off); empty: info for `gateway`, `processor` "
                    + "and `dev`, warn for the one-shot commands. The audit log, `io.sluice.audit`, is at info "
                    + "unless `SLUICE_LOG_LEVELS` names it.");
    public static final Setting LEVELS = new Setting("SLUICE_LOG_LEVELS", "",
            "Levels per logger (a package or class), over `SLUICE_LOG_LEVEL`: comma-separated `logger=level`, such as "
                    + "`io.sluice.gateway=debug,org.apache.kafka=info`. Kafka logs at warn unless named here.");
    public static final List<Setting> SETTINGS = List.of(FORMAT, LEVEL, LEVELS);

    /** Kafka's INFO is thousands of lines per start; its warnings still show. */
    static final Map<String, String> QUIET = quiet();

    private static final Set<String> LEVEL_NAMES = Set.of("trace", "debug", "info", "warn", "error", "off");

    private LogSettings() {
    }

    /** One line per event, or one JSON object per line. */
    public enum Format { TEXT, JSON }

    /**
     * @param rootLevel the level of every logger not named in {@code levels}
     * @param levels    logger name to level, in the order applied
     * @param file      where to write instead of stderr; null for stderr
     */
    public record LogConfig(Format format, String rootLevel, Map<String, String> levels, Path file) {
        public LogConfig {
            levels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(levels));
        }
    }

    /**
     * @param command the command being run: servers ({@code gateway}, {@code processor}, {@code dev})
     *                log from INFO by default, the one-shot commands only warnings
     * @param file    the log file, or null for stderr
     */
    public static LogConfig from(Settings settings, String command, Path file) {
        Format format = switch (settings.get(FORMAT).toLowerCase(Locale.ROOT)) {
            case "text" -> Format.TEXT;
            case "json" -> Format.JSON;
            default -> throw new IllegalArgumentException(FORMAT.name() + " is text or json, not " + settings.get(FORMAT));
        };
        String root = settings.get(LEVEL).isEmpty()
                ? (Set.of("gateway", "processor", "dev").contains(command) ? "info" : "warn")
                : level(LEVEL, settings.get(LEVEL));
        Map<String, String> levels = new LinkedHashMap<>(QUIET);
        // Who changed a project's data, whatever the command's own level: one-shot commands log warnings only.
        levels.put(AuditLog.LOGGER, "info");
        levels.putAll(levels(settings.get(LEVELS)));
        return new LogConfig(format, root, levels, file);
    }

    static Map<String, String> levels(String text) {
        Map<String, String> levels = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int equals = entry.indexOf('=');
            if (equals <= 0 || entry.substring(0, equals).isBlank()) {
                throw new IllegalArgumentException(LEVELS.name() + " is logger=level[,logger=level…], such as "
                        + "io.sluice.gateway=debug,org.apache.kafka=info: not " + entry.strip());
            }
            levels.put(entry.substring(0, equals).strip(), level(LEVELS, entry.substring(equals + 1)));
        }
        return levels;
    }

    private static String level(Setting setting, String text) {
        String level = text.strip().toLowerCase(Locale.ROOT);
        if (!LEVEL_NAMES.contains(level)) {
            throw new IllegalArgumentException(setting.name() + " levels are trace, debug, info, warn, error or off: not " + text.strip());
        }
        return level;
    }

    private static Map<String, String> quiet() {
        Map<String, String> quiet = new LinkedHashMap<>();
        quiet.put("org.apache.kafka", "warn");
        quiet.put("kafka", "warn");
        quiet.put("state.change.logger", "warn");
        quiet.put("org.apache.kafka.clients.NetworkClient", "error");
        return java.util.Collections.unmodifiableMap(quiet);
    }
}
