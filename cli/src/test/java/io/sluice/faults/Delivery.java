package io.sluice.faults;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Clients that send uniquely identified transactions and remember which ones got a 2xx, and the
 * report a fault test ends with: sent, acknowledged, found in ClickHouse, lost, duplicated.
 */
final class Delivery {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final Map<Integer, AtomicInteger> refusedByStatus = new ConcurrentHashMap<>();
    final AtomicInteger sent = new AtomicInteger();

    /** The status of one request with this body (sent is not counted), -1 when the connection failed. */
    static int status(int port, String token, String key, String body) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/" + token + "/transaction"))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Sends one transaction; -1 when the connection failed. */
    int send(int port, String token, String key, String eventId) {
        sent.incrementAndGet();
        int status;
        try {
            status = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/" + token + "/transaction"))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(15))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"event_id\": \"" + eventId + "\", \"transaction\": \"GET /fault\","
                            + " \"tags\": {\"http.status_code\": 200}}")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            status = -1;
        }
        if (status == 200) {
            acknowledged.add(eventId);
        } else {
            refusedByStatus.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
        }
        return status;
    }

    /** What a fault test reports; lost and duplicated must be 0. */
    record Report(String fault, int sent, int acknowledged, long found, long lost, long duplicated, String refused) {
        @Override
        public String toString() {
            return "fault: " + fault + " | sent " + sent + ", acknowledged " + acknowledged + ", found in ClickHouse " + found
                    + ", lost " + lost + ", duplicated " + duplicated + " | refused " + refused;
        }
    }
}
