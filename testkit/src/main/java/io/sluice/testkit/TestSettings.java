package io.sluice.testkit;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.sluice.config.Aggregate;
import io.sluice.config.Setting;
import io.sluice.config.Settings;
import io.sluice.config.Topics;

/**
 * The settings (SLUICE_* values) of what a test starts on the real engines: the engines' addresses
 * and free ports ({@link #on}), and for a test's own pipeline its own topics, database, application
 * id and state directory ({@link #isolated}), so test classes in one JVM never meet. Each test adds
 * what it is about with {@link #with}.
 */
public final class TestSettings {
    private static final List<Setting> TOPICS = Stream.concat(Stream.of(Topics.TRANSACTIONS, Topics.ERRORS, Topics.SESSIONS, Topics.PROJECTS,
            Topics.HISTORY, Topics.ERROR_HISTORY, Topics.DEAD_LETTERS, Topics.QUOTA_USAGE), Aggregate.ALL.stream().map(Aggregate::topic)).toList();
    private static final String TOPIC_PREFIX = "SLUICE_TOPIC_";

    private final Map<String, String> values;

    private TestSettings(Map<String, String> values) {
        this.values = new HashMap<>(values);
    }

    /** The engines' addresses, free ports for every server, and the default topics and database. */
    public static TestSettings on(Engines engines) {
        return new TestSettings(Map.of())
                .with("SLUICE_KAFKA_BOOTSTRAP_SERVERS", engines.kafkaBootstrapServers())
                .with("SLUICE_CLICKHOUSE_URL", engines.clickHouseUrl())
                .with("SLUICE_CLICKHOUSE_USER", engines.clickHouseUser())
                .with("SLUICE_CLICKHOUSE_PASSWORD", engines.clickHousePassword())
                .with("SLUICE_GATEWAY_PORT", "0")
                .with("SLUICE_GATEWAY_ADMIN_PORT", "0")
                .with("SLUICE_PROCESSOR_ADMIN_PORT", "0")
                // Every test sends from 127.0.0.1, many with wrong keys on purpose, and waits for new projects by
                // retrying (401 until the registry has them): a big failed-auth budget; tests of the budget make it small.
                .with("SLUICE_GATEWAY_AUTH_FAILURE_BURST", "100000");
    }

    /**
     * {@link #on} with a pipeline of its own.
     *
     * @param name a plain word (letters, digits, underscores): database {@code sluice_<name>}, topics
     *             {@code <name>.<topic>}, application id {@code sluice-<name>}
     */
    public static TestSettings isolated(String name, Engines engines, Path stateDir) {
        TestSettings settings = on(engines)
                .with("SLUICE_CLICKHOUSE_DATABASE", "sluice_" + name)
                .with("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-" + name)
                .with("SLUICE_PROCESSOR_STATE_DIR", stateDir.toString())
                .with("SLUICE_PROCESSOR_THREADS", "1")
                .with("SLUICE_TOPIC_PARTITIONS", "3");
        for (Setting topic : TOPICS) {
            settings.with(topic.name(), name + "." + topic.name().substring(TOPIC_PREFIX.length()).toLowerCase().replace('_', '-'));
        }
        return settings;
    }

    /** Sets {@code name} to {@code value}, over what was set before. */
    public TestSettings with(String name, String value) {
        values.put(name, value);
        return this;
    }

    public TestSettings with(Setting setting, String value) {
        return with(setting.name(), value);
    }

    /** Sets each of {@code overrides}, over what was set before. */
    public TestSettings with(Map<String, String> overrides) {
        values.putAll(overrides);
        return this;
    }

    /** The value set for {@code name}, or null. */
    public String get(String name) {
        return values.get(name);
    }

    /** A copy of the values, for a test that changes them further as a map. */
    public Map<String, String> toMap() {
        return new HashMap<>(values);
    }

    public Settings build() {
        return new Settings(values);
    }
}
