package io.sluice.stack;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import io.sluice.cli.Command;
import io.sluice.cli.Extension;
import io.sluice.config.Setting;
import io.sluice.config.Settings;

/** {@code dev} and {@code bench}, and the local stack's settings for {@code ./sluice config}. */
public final class DeveloperCommands implements Extension {
    @Override
    public Map<String, Command> commands(Settings settings, PrintStream out) {
        return Map.of("dev", new DevCommand(settings, out), "bench", new BenchCommand(out));
    }

    @Override
    public List<Setting> settings() {
        return StackConfig.SETTINGS;
    }
}
