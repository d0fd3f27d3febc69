package io.sluice.e2e;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.TestSettings;

/**
 * A pipeline under test on the real engines: its own settings ({@link TestSettings#isolated}), topics,
 * project registry and ClickHouse database, and, once started, a gateway and a processor (with its
 * sink) on them. A test makes its projects in it, sends to it, and reads ClickHouse from it. It lives
 * in cli's tests, the lowest module with both the gateway and the processor (they depend on testkit
 * for their own tests, so testkit cannot start them).
 */
public final class TestPipeline implements AutoCloseable {
    /** How long an accepted event may take to reach its rows in ClickHouse on a busy machine. */
    public static final Duration ARRIVAL = Duration.ofSeconds(60);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Engines engines;
    private final Settings settings;
    private final KafkaSettings kafka;
    private final boolean withGateway;
    private final boolean withProcessor;
    private Gateway gateway;
    private ProcessorService processor;

    private TestPipeline(Builder builder) {
        this.engines = builder.engines;
        this.settings = builder.settings.build();
        this.kafka = KafkaSettings.from(settings);
        this.withGateway = builder.withGateway;
        this.withProcessor = builder.withProcessor;
    }

    /** A pipeline named {@code name} (its database {@code sluice_<name>}, topics {@code <name>.<topic>}). */
    public static Builder named(String name, Engines engines, Path stateDir) {
        return new Builder(engines, TestSettings.isolated(name, engines, stateDir));
    }

    /** What a test needs of its pipeline: settings of its own, and which servers run. */
    public static final class Builder {
        private final Engines engines;
        private final TestSettings settings;
        private boolean withGateway = true;
        private boolean withProcessor = true;

        private Builder(Engines engines, TestSettings settings) {
            this.engines = engines;
            this.settings = settings;
        }

        public Builder with(String name, String value) {
            settings.with(name, value);
            return this;
        }

        public Builder with(Map<String, String> overrides) {
            settings.with(overrides);
            return this;
        }

        /** The processor (and its sink) only: the test starts its own gateways, or sends straight to the topics. */
        public Builder withoutGateway() {
            withGateway = false;
            return this;
        }

        /** The gateway only: the test reads the raw topics, or starts its own processors. */
        public Builder withoutProcessor() {
            withProcessor = false;
            return this;
        }

        /** Its topics created, nothing running: for a test that prepares the registry before {@link TestPipeline#start}. */
        public TestPipeline create() {
            TestPipeline pipeline = new TestPipeline(this);
            TopicSetup.ensureTopics(pipeline.kafka);
            return pipeline;
        }

        /** Created, then started. */
        public TestPipeline start() throws InterruptedException {
            return create().start();
        }
    }

    /** Starts the servers asked for. The gateway reads the whole registry before it serves: projects made and changed before are in force at once. */
    public TestPipeline start() throws InterruptedException {
        if (withGateway) {
            gateway = startGateway(Map.of());
        }
        try {
            if (withProcessor) {
                processor = ProcessorService.start(ProcessorConfig.from(settings));
            }
        } catch (RuntimeException processorFailed) {
            close();
            throw processorFailed;
        }
        return this;
    }

    /** Another gateway on the same topics and registry, with {@code overrides}; the caller closes it. */
    public Gateway startGateway(Map<String, String> overrides) throws InterruptedException {
        return Gateway.start(GatewayConfig.from(settings.with(overrides)));
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
        return settings.get(ClickHouseSettings.DATABASE);
    }

    public Gateway gateway() {
        if (gateway == null) {
            throw new IllegalStateException("this pipeline's gateway is not running: start it, or build it with one");
        }
        return gateway;
    }

    /** The gateway's own registry, to wait on for a registry change without sending the gateway a request. */
    public FollowingRegistry gatewayRegistry() {
        return FollowingRegistry.of(gateway());
    }

    public int port() {
        return gateway().port();
    }

    /** {@code http://127.0.0.1:<port><path>} of the gateway. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
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

    /** A new project, once the gateway knows it. */
    public ProjectAdmin.NewProject newProject(String name) {
        return newProject(name, null);
    }

    /** A new project with a quota (none when null), once the gateway knows it. */
    public ProjectAdmin.NewProject newProject(String name, Quota quota) {
        ProjectAdmin.NewProject project = createProject(name, quota);
        gatewayRegistry().awaitKnown(project.token());
        return project;
    }

    /** POSTs JSON to the project's v1 endpoint {@code /api/v1/<token>/<endpoint>} with its key. */
    public HttpResponse<String> post(ProjectAdmin.NewProject project, String endpoint, String json) {
        return send(HttpRequest.newBuilder(URI.create(url("/api/v1/" + project.token() + "/" + endpoint)))
                .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending to " + request.uri(), e);
        } catch (Exception e) {
            throw new IllegalStateException("request to " + request.uri() + " failed", e);
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

    @Override
    public void close() {
        if (gateway != null) {
            gateway.close();
        }
        if (processor != null) {
            processor.close();
        }
    }
}
