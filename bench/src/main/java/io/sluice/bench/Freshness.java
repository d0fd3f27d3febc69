package io.sluice.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;

/**
 * How long after its 2xx an event is visible in {@code traffic_1m}: while other load runs, a marker
 * (a transaction with an environment of its own) is sent every 100 ms, and a poller notes when
 * each marker's row appears.
 */
final class Freshness {
    /** Percentiles of 2xx-to-visible, in milliseconds, over {@code markers} markers. */
    record Result(int markers, double p50Millis, double p99Millis) {
    }

    /** @param markerPrefix starts every marker's environment; unique per measurement in a run */
    static Result measure(String url, String key, Client clickHouse, String database, int seconds, String markerPrefix) throws InterruptedException {
        Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();
        Map<String, Long> visibleAt = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread poller = new Thread(() -> {
            while (running.get() || visibleAt.size() < acknowledgedAt.size()) {
                try {
                    for (GenericRecord row : clickHouse.queryAll(
                            "SELECT DISTINCT environment FROM " + database + ".traffic_1m WHERE startsWith(environment, '" + markerPrefix + "')")) {
                        visibleAt.putIfAbsent(row.getString("environment"), System.nanoTime());
                    }
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException retry) {
                    // keep polling
                }
            }
        }, "freshness-poller");
        poller.start();
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        for (int i = 0; System.nanoTime() < deadline; i++) {
            String marker = markerPrefix + i;
            try {
                int status = http.send(HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"transaction\": \"GET /fresh\", \"environment\": \""
                                + marker + "\", \"tags\": {\"http.status_code\": 200}}")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == 200) {
                    acknowledgedAt.put(marker, System.nanoTime());
                }
            } catch (java.io.IOException e) {
                // a marker lost to the load generator's pressure is simply not counted
            }
            Thread.sleep(100);
        }
        running.set(false);
        poller.join(30_000);
        poller.interrupt();
        List<Double> delays = new ArrayList<>();
        acknowledgedAt.forEach((marker, ack) -> {
            Long seen = visibleAt.get(marker);
            if (seen != null) {
                delays.add((seen - ack) / 1e6);
            }
        });
        delays.sort(Double::compare);
        if (delays.isEmpty()) {
            return new Result(0, Double.NaN, Double.NaN);
        }
        return new Result(delays.size(), delays.get(delays.size() / 2),
                delays.get(Math.min(delays.size() - 1, (int) Math.ceil(delays.size() * 0.99) - 1)));
    }
}
