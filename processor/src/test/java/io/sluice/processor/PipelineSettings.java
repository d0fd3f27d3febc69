package io.sluice.processor;

import java.nio.file.Path;
import java.util.Map;

import io.sluice.testkit.Engines;
import io.sluice.testkit.IsolatedSettings;

/** Settings for a processor under test: its own topics, database and group, on a chosen ClickHouse. */
final class PipelineSettings {
    private PipelineSettings() {
    }

    static Map<String, String> forTest(String name, Engines engines, String clickHouseUrl, Path stateDir) {
        Map<String, String> values = IsolatedSettings.of(name, engines, stateDir);
        values.put("SLUICE_CLICKHOUSE_URL", clickHouseUrl);
        return values;
    }
}
