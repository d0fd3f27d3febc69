package io.sluice.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

/** wrk sends its bodies in turn, so that a load is as varied as the bodies it is given, not one body again and again. */
class WrkVariedBodiesIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eachBodyIsSentInTurn() throws Exception {
        Wrk.ensureInstalled();
        List<byte[]> bodies = Payloads.transactionsWithoutEventIds(3);
        Map<String, Integer> received = new ConcurrentHashMap<>();
        HttpServer server = AnsweringServer.start(exchange -> received.merge(
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), 1, Integer::sum));
        Wrk.Result load;
        try {
            // one connection: its requests reach the server in the order wrk sends them
            load = new Wrk(dir).run("http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/x/transaction", "k", bodies,
                    false, 1, 2, 300);
        } finally {
            server.stop(0);
        }
        assertEquals(bodies.stream().map(body -> new String(body, StandardCharsets.UTF_8)).collect(Collectors.toSet()),
                Set.copyOf(received.keySet()), "the bodies the server received");
        int fewest = received.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
        int most = received.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(most - fewest <= 1, "each body as often as the others, give or take the last turn: " + received.values());
        assertEquals(0, load.non2xx() + load.errors(), load.toString());
    }
}
