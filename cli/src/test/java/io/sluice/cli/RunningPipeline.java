package io.sluice.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.processor.ProcessorConfig;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.Quota;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.IsolatedPipeline;

/**
 * A gateway and a processor running on an {@link IsolatedPipeline}: what an end-to-end test starts
 * once, makes its projects in, sends to, and reads ClickHouse from. It lives here rather than in
 * testkit because gateway and processor depend on testkit for their own tests (a cycle); cli is
 * the lowest module that depends on both.
 */
public final class RunningPipeline extends IsolatedPipeline implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Gateway gateway;
    private final ProcessorService processor;

    private RunningPipeline(IsolatedPipeline pipeline, Gateway gateway, ProcessorService processor) {
        super(pipeline);
        this.gateway = gateway;
        this.processor = processor;
    }

    /** A pipeline named {@code name} ({@link IsolatedPipeline#create}), then its gateway and processor. */
    public static RunningPipeline start(String name, Engines engines, Path stateDir, Map<String, String> overrides)
            throws InterruptedException {
        return start(IsolatedPipeline.create(name, engines, stateDir, overrides));
    }

    /** Its gateway reads the whole registry before it serves: projects made and changed before are in force at once. */
    public static RunningPipeline start(IsolatedPipeline pipeline) throws InterruptedException {
        Gateway gateway = Gateway.start(GatewayConfig.from(pipeline.settings()));
        try {
            return new RunningPipeline(pipeline, gateway, ProcessorService.start(ProcessorConfig.from(pipeline.settings())));
        } catch (RuntimeException processorFailed) {
            gateway.close();
            throw processorFailed;
        }
    }

    /** Another gateway on the same topics and registry, with {@code overrides}; the caller closes it. */
    public Gateway startGateway(Map<String, String> overrides) throws InterruptedException {
        return Gateway.start(GatewayConfig.from(settings().with(overrides)));
    }

    public Gateway gateway() {
        return gateway;
    }

    public int port() {
        return gateway.port();
    }

    /** {@code http://127.0.0.1:<port><path>} of the gateway. */
    public String url(String path) {
        return "http://127.0.0.1:" + gateway.port() + path;
    }

    /** A new project, once the gateway knows it. */
    public ProjectAdmin.NewProject newProject(String name) {
        return newProject(name, null);
    }

    /**
     * Leaves out of an outcomes query the refusals of {@link #newProject}'s asking: until the gateway
     * knows the project, its envelope is answered 401 and counted {@code unauthorized} under the project.
     */
    public static final String NOT_ASKING = " AND outcome != 'unauthorized'";

    /** A new project with a quota (none when null), once the gateway knows it. */
    public ProjectAdmin.NewProject newProject(String name, Quota quota) {
        ProjectAdmin.NewProject project = createProject(name, quota);
        // Asked over HTTP (the registry is the gateway's own): an envelope of no items, which counts and stores nothing.
        HttpRequest known = HttpRequest.newBuilder(URI.create(url("/api/" + project.numericId() + "/envelope/")))
                .header("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=" + project.dsnKey().publicKey())
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{}\n")).build();
        Await.until("project " + name + " known to the gateway", Duration.ofSeconds(20), 200, () -> send(known).statusCode());
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

    @Override
    public void close() {
        gateway.close();
        processor.close();
    }
}
