package io.sluice.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.config.Setting;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.ProcessorConfig;

/**
 * The README's configuration table, generated from the settings' declarations
 * ({@code ./sluice config} prints it; a test keeps the README equal to it).
 */
public final class ConfigurationTable {
    private ConfigurationTable() {
    }

    /** The server's settings once each, in a stable order: gateway, processor, then the CLI's. */
    public static List<Setting> allSettings() {
        return allSettings(List.of());
    }

    /** The server's settings, then {@code extra} (the developer's ./sluice adds the local stack's). */
    public static List<Setting> allSettings(List<Setting> extra) {
        Map<String, Setting> byName = new LinkedHashMap<>();
        for (List<Setting> group : List.of(GatewayConfig.allSettings(), ProcessorConfig.allSettings(), PublicUrl.SETTINGS,
                CliKafkaTimeout.SETTINGS, LogSettings.SETTINGS, extra)) {
            group.forEach(setting -> byName.putIfAbsent(setting.name(), setting));
        }
        return List.copyOf(byName.values());
    }

    public static String markdown(List<Setting> extra) {
        StringBuilder table = new StringBuilder("| Variable | Default | Meaning |\n|---|---|---|\n");
        for (Setting setting : allSettings(extra)) {
            String shown = setting.name().equals(ProcessorConfig.STATE_DIR.name()) ? "`$TMPDIR/sluice-streams`"
                    : setting.defaultValue().isEmpty() ? "(empty)" : "`" + setting.defaultValue() + "`";
            table.append("| `").append(setting.name()).append("` | ").append(shown).append(" | ")
                    .append(setting.description()).append(setting.range().isEmpty() ? "" : " Allowed: " + setting.range() + ".")
                    .append(" |\n");
        }
        return table.toString();
    }
}
