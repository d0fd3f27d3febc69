package io.sluice.bench.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** A local HTTP server for wrk's tests: each request is handed to a {@link Receiver}, then answered 200 with {@code {}}. */
final class AnsweringServer {
    private static final byte[] ANSWER = "{}".getBytes(StandardCharsets.UTF_8);

    /** What the test keeps of a request, before it is answered. */
    interface Receiver {
        void received(HttpExchange exchange) throws IOException;
    }

    private AnsweringServer() {
    }

    /** Started on a free port of 127.0.0.1; the caller stops it. */
    static HttpServer start(Receiver receiver) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            receiver.received(exchange);
            exchange.sendResponseHeaders(200, ANSWER.length);
            try (OutputStream answer = exchange.getResponseBody()) {
                answer.write(ANSWER);
            }
        });
        server.start();
        return server;
    }
}
