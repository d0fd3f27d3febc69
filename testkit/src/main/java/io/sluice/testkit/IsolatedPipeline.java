package io.sluice.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;

/**
 * One test class's pipeline on the shared engines, apart from its servers: its own settings
 * ({@link TestSettings#isolated}), its topics (created), its project registry and its ClickHouse
 * database, read the way an end-to-end test checks what arrived. The gateway and the processor
 * are started from these settings by the module that has both (cli's {@code RunningPipeline}):
 * they depend on testkit for their own tests, so testkit cannot start them.
 */
public class IsolatedPipeline {
    /** How long an accepted event may take to reach its rows in ClickHouse on a busy machine. */
    public static final Duration ARRIVAL = Duration.ofSeconds(60);

    private final Engines engines;
    private final Settings settings;
    private final KafkaSettings kafka;
    private final String database;

    private IsolatedPipeline(Engines engines, Settings settings, String database) {
        this.engines = engines;
        this.settings = settings;
        this.kafka = KafkaSettings.from(settings);
        this.database = database;
    }

    /** The same pipeline, for a class that adds what runs on it. */
    protected IsolatedPipeline(IsolatedPipeline pipeline) {
        this(pipeline.engines, pipeline.settings, pipeline.database);
    }

    /**
     * Settings named {@code name} ({@link TestSettings#isolated}) with {@code overrides} on top, and
     * their topics created.
     */
    public static IsolatedPipeline create(String name, Engines engines, Path stateDir, Map<String, String> overrides) {
        TestSettings values = TestSettings.isolated(name, engines, stateDir).with(overrides);
        Settings settings = values.build();
        TopicSetup.ensureTopics(KafkaSettings.from(settings));
        return new IsolatedPipeline(engines, settings, values.get("SLUICE_CLICKHOUSE_DATABASE"));
    }

    public Engines engines() {
        return engines;
    }

    public Settings settings() {
        return settings;
    }

    public Topics topics() {
        return kafka.topics();
    }

    /** The ClickHouse database its tables are in. */
    public String database() {
        return database;
    }

    /** An admin of this pipeline's project registry, for changes beyond creating projects; the caller closes it. */
    public ProjectAdmin projects() {
        return new ProjectAdmin(kafka);
    }

    /** A new project in this pipeline's registry; gateways learn of it by following the registry. */
    public ProjectAdmin.NewProject createProject(String name) {
        return createProject(name, null);
    }

    /** As {@link #createProject(String)}, with a quota (none when null). */
    public ProjectAdmin.NewProject createProject(String name, Quota quota) {
        try (ProjectAdmin admin = projects()) {
            return admin.create(name, quota);
        }
    }

    /** A query's answer (TSV, stripped) from the shared ClickHouse. */
    public String query(String sql) {
        return ClickHouseQuery.run(engines, sql);
    }

    /** The query's answer once it equals {@code expected}; fails, naming the query, after {@link #ARRIVAL}. */
    public String awaitAnswer(String expected, String sql) {
        return Await.until("the answer to " + sql, ARRIVAL, expected, () -> query(sql));
    }

    /** The query's answer once it is not empty; empty when nothing arrived within {@link #ARRIVAL}. */
    public String awaitAnyAnswer(String sql) {
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        String answer = query(sql);
        while (answer.isEmpty() && System.nanoTime() < deadline) {
            sleep();
            answer = query(sql);
        }
        return answer;
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while awaiting a query's answer", e);
        }
    }
}
