package io.sluice.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.sluice.config.Setting;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.ProcessorConfig;
import io.sluice.stack.StackConfig;

/**
 * The README's configuration table, generated from the settings' declarations
 * ({@code ./sluice config} prints it; a test keeps the README equal to it).
 */
public final class ConfigurationTable {
    private ConfigurationTable() {
    }

    /** Every setting once, in a stable order: gateway, processor, then the local stack's own. */
    public static List<Setting> allSettings() {
        Map<String, Setting> byName = new LinkedHashMap<>();
        for (List<Setting> group : List.of(GatewayConfig.allSettings(), ProcessorConfig.allSettings(), StackConfig.SETTINGS)) {
            group.forEach(setting -> byName.putIfAbsent(setting.name(), setting));
        }
        return List.copyOf(byName.values());
    }

    public static String markdown() {
        StringBuilder table = new StringBuilder("| Variable | Default | Meaning |\n|---|---|---|\n");
        for (Setting setting : allSettings()) {
            String shown = setting.name().equals(ProcessorConfig.STATE_DIR.name()) ? "`$TMPDIR/sluice-streams`"
                    : setting.defaultValue().isEmpty() ? "(empty)" : "`" + setting.defaultValue() + "`";
            table.append("| `").append(setting.name()).append("` | ").append(shown).append(" | ")
                    .append(setting.description()).append(" |\n");
        }
        return table.toString();
    }
}
