package io.sluice.processor;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.sluice.config.Settings;
import io.sluice.testkit.Engines;

/** Settings for a processor under test: its own topics, database and group, so test classes never meet. */
final class PipelineSettings {
    private PipelineSettings() {
    }

    static Map<String, String> forTest(String name, Engines engines, String clickHouseUrl, Path stateDir) {
        Map<String, String> values = new HashMap<>();
        values.put("SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers());
        values.put("SLUICE_CLICKHOUSE_URL", clickHouseUrl);
        values.put("SLUICE_CLICKHOUSE_USER", engines.clickHouseUser());
        values.put("SLUICE_CLICKHOUSE_PASSWORD", engines.clickHousePassword());
        values.put("SLUICE_CLICKHOUSE_DATABASE", "sluice_" + name);
        values.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-" + name);
        values.put("SLUICE_PROCESSOR_STATE_DIR", stateDir.toString());
        values.put("SLUICE_PROCESSOR_THREADS", "1");
        values.put("SLUICE_PROCESSOR_ADMIN_PORT", "0");
        values.put("SLUICE_TOPIC_PARTITIONS", "3");
        for (String topic : new String[] {"TRANSACTIONS", "ERRORS", "PROJECTS", "HISTORY", "TRAFFIC", "ERROR_HISTORY",
                "ERRORS_1M", "OUTCOMES", "DEAD_LETTERS"}) {
            values.put("SLUICE_TOPIC_" + topic, name + "." + topic.toLowerCase().replace('_', '-'));
        }
        return values;
    }

    static Settings settings(Map<String, String> values) {
        return new Settings(values);
    }
}
