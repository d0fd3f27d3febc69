package io.sluice.cli;

import java.io.PrintStream;
import java.nio.file.Path;
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
        public Map<String, Object> commands(Settings settings, PrintStream out) {
            return Map.of();
        }

        @Override
        public List<Setting> settings() {
            return List.of();
        }

        @Override
        public String usage() {
            return "";
        }
    };

    /** By name: picocli commands ({@link CliCommand}s, {@link LongRunning} when they keep running). */
    Map<String, Object> commands(Settings settings, PrintStream out);

    /** Listed by {@code ./sluice config} after the gateway's and the processor's. */
    List<Setting> settings();

    /** Its commands' lines in {@code ./sluice help}, in the layout of {@link Usage#TEXT}, each ending in a newline. */
    String usage();

    /** Where {@code command} logs instead of stderr; null for stderr. */
    default Path logFile(String command, Settings settings) {
        return null;
    }
}
