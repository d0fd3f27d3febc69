package io.sluice.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/** wrk sends envelopes as {@code @sentry/node} does: each a new event, streamed, on a connection of its own. */
class WrkEnvelopesIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the server saw of one request. */
    private record Received(int clientPort, String connection, String transferEncoding, String query, String envelopeId,
                            String eventId) {
    }

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eachEnvelopeIsANewEventStreamedOnAConnectionOfItsOwn() throws Exception {
        Wrk.ensureInstalled();
        List<Received> received = new CopyOnWriteArrayList<>();
        HttpServer server = AnsweringServer.start(exchange -> {
            List<String> lines = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            received.add(new Received(exchange.getRemoteAddress().getPort(), exchange.getRequestHeaders().getFirst("Connection"),
                    exchange.getRequestHeaders().getFirst("Transfer-Encoding"), exchange.getRequestURI().getRawQuery(),
                    JSON.readTree(lines.get(0)).get("event_id").asText(), JSON.readTree(lines.get(2)).get("event_id").asText()));
            exchange.getResponseHeaders().set("Connection", "close"); // as the gateway answers a request that asks it to close
        });
        Wrk.Result load;
        try {
            load = new Wrk(dir).envelopesOnNewConnections("http://127.0.0.1:" + server.getAddress().getPort()
                    + "/api/42/envelope/?sentry_key=abc&sentry_version=7", Payloads.nodeTransactionEnvelope(Instant.now()), 2);
        } finally {
            server.stop(0);
        }
        assertEquals(0, load.non2xx() + load.errors(), load.toString());
        int requests = received.size();
        // One connection at a time: a request sent on the connection of the one before would come from its port.
        // (Distinct ports over all requests are not: the kernel hands a closed connection's port out again.)
        long sameConnectionAsBefore = java.util.stream.IntStream.range(1, requests)
                .filter(i -> received.get(i).clientPort() == received.get(i - 1).clientPort()).count();
        assertEquals(0, sameConnectionAsBefore, "requests from the port of the request before them, of " + requests);
        assertEquals(requests, received.stream().map(Received::envelopeId).distinct().count(), "event ids");
        assertEquals(Set.of("close chunked sentry_key=abc&sentry_version=7"), received.stream()
                .map(r -> r.connection() + " " + r.transferEncoding() + " " + r.query()).collect(Collectors.toSet()));
        assertEquals(List.of(), received.stream().filter(r -> !r.envelopeId().equals(r.eventId()) || !r.eventId().matches("[0-9a-f]{32}"))
                .toList(), "envelopes whose event's id is not their header's, 32 hex digits");
    }
}
