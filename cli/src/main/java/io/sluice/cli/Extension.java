package io.sluice.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import io.sluice.config.Setting;
import io.sluice.config.Settings;

/**
 * Commands a launcher adds to the server's own, with the settings they read: the developer's
 * {@code ./sluice} adds {@code dev} and {@code bench}, which need the embedded engines the server
 * image must not carry.
 */
public interface Extension {
    Extension NONE = new Extension() {
        @Override
        public Map<String, Command> commands(Settings settings, PrintStream out) {
            return Map.of();
        }

        @Override
        public List<Setting> settings() {
            return List.of();
        }
    };

    Map<String, Command> commands(Settings settings, PrintStream out);

    /** Listed by {@code ./sluice config} after the gateway's and the processor's. */
    List<Setting> settings();
}
