package io.sluice.admin;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.sluice.metrics.Scrape;

/**
 * The operators' port of a server, apart from its public one, with the same answers for the
 * gateway and the processor:
 * <ul>
 * <li>{@code GET /healthz}: 200 {@code {"status":"ok", <details>}} while the process serves, else
 * 503 {@code "failed"};</li>
 * <li>{@code GET /readyz}: 200 {@code {"status":"ready", <details>}}, with {@code "degraded":[…]}
 * when some requests fail, or 503 {@code {"status":"not_ready", <details>, "reasons":[…]}};</li>
 * <li>{@code GET /metrics}: the registry's scrape, Prometheus text, or OpenMetrics / protobuf when
 * the scraper's {@code Accept} asks for them.</li>
 * </ul>
 * The JDK's own HTTP server on one thread of its own: three read-only paths need nothing more, and
 * no check ever runs on a thread that serves the public port.
 */
public final class AdminServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService thread;

    private AdminServer(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * @param threadName names the one thread that answers, in thread dumps
     * @param metrics    the scrape in the format a request's {@code Accept} header (maybe null) asks for
     */
    public static AdminServer start(String host, int port, String threadName, AdminChecks checks, Function<String, Scrape> metrics)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread answering = new Thread(runnable, threadName);
            answering.setDaemon(true);
            return answering;
        });
        server.setExecutor(thread);
        server.createContext("/", exchange -> answer(exchange, checks, metrics));
        server.start();
        return new AdminServer(server, thread);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }

    private static void answer(HttpExchange exchange, AdminChecks checks, Function<String, Scrape> metrics) throws IOException {
        try {
            switch (exchange.getRequestURI().getRawPath()) {
                case "/healthz" -> {
                    Health health = checks.health();
                    json(exchange, health.alive() ? 200 : 503, health(health));
                }
                case "/readyz" -> {
                    Readiness readiness = checks.readiness();
                    json(exchange, readiness.ready() ? 200 : 503, readiness(readiness));
                }
                case "/metrics" -> {
                    Scrape scrape = metrics.apply(exchange.getRequestHeaders().getFirst("Accept"));
                    send(exchange, 200, scrape.body(), scrape.contentType());
                }
                default -> json(exchange, 404, JSON.createObjectNode()
                        .put("error", "not_found").put("message", "admin paths: /healthz, /readyz, /metrics"));
            }
        } finally {
            exchange.close();
        }
    }

    static ObjectNode health(Health health) {
        ObjectNode body = JSON.createObjectNode().put("status", health.alive() ? "ok" : "failed");
        health.details().forEach(body::put);
        return body;
    }

    static ObjectNode readiness(Readiness readiness) {
        ObjectNode body = JSON.createObjectNode().put("status", readiness.ready() ? "ready" : "not_ready");
        readiness.details().forEach(body::put);
        if (!readiness.ready()) {
            list(body, "reasons", readiness.notReady());
        } else if (!readiness.degraded().isEmpty()) {
            list(body, "degraded", readiness.degraded());
        }
        return body;
    }

    private static void list(ObjectNode body, String name, List<String> items) {
        items.forEach(body.putArray(name)::add);
    }

    private static void json(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        send(exchange, status, JSON.writeValueAsBytes(body), "application/json");
    }

    private static void send(HttpExchange exchange, int status, byte[] bytes, String contentType) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
