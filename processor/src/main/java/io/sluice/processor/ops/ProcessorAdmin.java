package io.sluice.processor.ops;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

import org.apache.kafka.streams.KafkaStreams;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.sluice.metrics.PrometheusMetrics;
import io.sluice.metrics.Scrape;
import io.sluice.sink.SinkMetrics;

/**
 * The processor's operators' port: {@code /healthz} (streams alive and the sink running),
 * {@code /readyz} (streams RUNNING: partitions assigned, state restored; a Kafka broker answered lately, see
 * {@link KafkaContact}; the sink not stalled; and stream threads not failing again and again, see
 * {@link StreamThreadFailures}; a 503 gives the reasons) and {@code /metrics}
 * (the registry's scrape: Prometheus text, or OpenMetrics / protobuf when the scraper asks). The
 * JDK's own HTTP server: three read-only paths need nothing more.
 */
public final class ProcessorAdmin implements AutoCloseable {
    private final HttpServer server;

    private ProcessorAdmin(HttpServer server) {
        this.server = server;
    }

    public static ProcessorAdmin start(String host, int port, KafkaStreams streams, PrometheusMetrics metrics, SinkMetrics sink,
                                       java.util.function.BooleanSupplier sinkAlive, StreamThreadFailures threadFailures,
                                       KafkaContact kafkaContact)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sluice-processor-admin");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/healthz", exchange -> {
            KafkaStreams.State state = streams.state();
            boolean alive = state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING && sinkAlive.getAsBoolean();
            answer(exchange, alive ? 200 : 503, "{\"status\":\"" + (alive ? "ok" : "failed") + "\",\"streams\":\"" + state + "\"}");
        });
        server.createContext("/readyz", exchange -> {
            KafkaStreams.State state = streams.state();
            // Every reason it is not ready, so a 503 always says why (as the gateway's does).
            java.util.List<String> reasons = new java.util.ArrayList<>();
            if (state != KafkaStreams.State.RUNNING) {
                reasons.add("Kafka Streams is " + state + ", not RUNNING");
            }
            // Streams stays RUNNING while no broker answers.
            kafkaContact.unreachable().ifPresent(reasons::add);
            sink.stalled().ifPresent(reasons::add);
            // Streams may be RUNNING between the failures of a task that fails on every new thread.
            threadFailures.unhealthy().ifPresent(reasons::add);
            boolean ready = reasons.isEmpty();
            answer(exchange, ready ? 200 : 503, "{\"status\":\"" + (ready ? "ready" : "not_ready") + "\",\"streams\":\"" + state + "\""
                    + (ready ? "" : ",\"reason\":\"" + jsonEscape(String.join("; ", reasons)) + "\"") + "}");
        });
        server.createContext("/metrics", exchange -> {
            Scrape scrape = metrics.scrape(exchange.getRequestHeaders().getFirst("Accept"));
            answer(exchange, 200, scrape.body(), scrape.contentType());
        });
        server.start();
        return new ProcessorAdmin(server);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static String jsonEscape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        answer(exchange, status, json.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    private static void answer(HttpExchange exchange, int status, byte[] bytes, String contentType) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
