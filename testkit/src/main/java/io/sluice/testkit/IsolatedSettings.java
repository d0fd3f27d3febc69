package io.sluice.testkit;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.sluice.config.Aggregate;
import io.sluice.config.Setting;
import io.sluice.config.Topics;

/**
 * Settings (SLUICE_* values) for one test's pipeline on the shared engines: its own topics,
 * database, application id, state directory and free ports, so test classes in one JVM never meet.
 */
public final class IsolatedSettings {
    private static final List<Setting> TOPICS = Stream.concat(Stream.of(Topics.TRANSACTIONS, Topics.ERRORS, Topics.SESSIONS, Topics.PROJECTS,
            Topics.HISTORY, Topics.ERROR_HISTORY, Topics.DEAD_LETTERS, Topics.QUOTA_USAGE), Aggregate.ALL.stream().map(Aggregate::topic)).toList();
    private static final String TOPIC_PREFIX = "SLUICE_TOPIC_";

    private IsolatedSettings() {
    }

    /**
     * @param name a plain word (letters, digits, underscores): database {@code sluice_<name>}, topics
     *             {@code <name>.<topic>}, application id {@code sluice-<name>}
     */
    public static Map<String, String> of(String name, Engines engines, Path stateDir) {
        Map<String, String> values = new HashMap<>();
        values.put("SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers());
        values.put("SLUICE_CLICKHOUSE_URL", engines.clickHouseUrl());
        values.put("SLUICE_CLICKHOUSE_USER", engines.clickHouseUser());
        values.put("SLUICE_CLICKHOUSE_PASSWORD", engines.clickHousePassword());
        values.put("SLUICE_CLICKHOUSE_DATABASE", "sluice_" + name);
        values.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-" + name);
        values.put("SLUICE_PROCESSOR_STATE_DIR", stateDir.toString());
        values.put("SLUICE_PROCESSOR_THREADS", "1");
        values.put("SLUICE_PROCESSOR_ADMIN_PORT", "0");
        values.put("SLUICE_GATEWAY_PORT", "0");
        values.put("SLUICE_GATEWAY_ADMIN_PORT", "0");
        // Tests wait for new projects by retrying (401 until the registry has them): a big budget.
        values.put("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "100000");
        values.put("SLUICE_TOPIC_PARTITIONS", "3");
        for (Setting topic : TOPICS) {
            values.put(topic.name(), name + "." + topic.name().substring(TOPIC_PREFIX.length()).toLowerCase().replace('_', '-'));
        }
        return values;
    }
}
