package io.sluice.bench.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;

/**
 * How long after its 2xx an event is visible in {@code traffic_1m}: while other load runs, a marker
 * (a transaction with an environment of its own) is sent every 100 ms, and a poller notes when
 * each marker's row appears. A second poller reads the processor's traffic topic (committed records
 * only, as the sink does) and notes when each marker's count is there, which splits the time into the
 * processor's part (2xx to counted in Kafka) and the sink's (the rest).
 */
public final class Freshness {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Percentiles of 2xx-to-visible, in milliseconds, over {@code markers} markers, and of 2xx to the
     * count committed in the traffic topic (the processor's part) over {@code countedMarkers}: those
     * of the visible markers whose commit the topic's reader saw.
     */
    public record Result(int markers, double p50Millis, double p99Millis, int countedMarkers, double countedP50Millis,
                  double countedP99Millis) {
    }

    /** @param markerPrefix starts every marker's environment; unique per measurement in a run */
    static Result measure(String url, String key, Client clickHouse, String database, KafkaSettings kafka, int seconds,
                          String markerPrefix) throws InterruptedException {
        Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();
        Map<String, Long> visibleAt = new ConcurrentHashMap<>();
        Map<String, Long> countedAt = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread counted = countedPoller(kafka, markerPrefix, countedAt, () -> running.get() || visibleAt.size() < acknowledgedAt.size());
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
        counted.join(30_000);
        counted.interrupt();
        List<Double> delays = delays(acknowledgedAt, visibleAt.keySet(), visibleAt);
        List<Double> countedDelays = delays(acknowledgedAt, visibleAt.keySet(), countedAt);
        return new Result(delays.size(), median(delays), p99(delays), countedDelays.size(), median(countedDelays),
                p99(countedDelays));
    }

    /** Milliseconds from each marker's 2xx to its time in {@code at}, for the markers in {@code markers}, sorted. */
    private static List<Double> delays(Map<String, Long> acknowledgedAt, Collection<String> markers, Map<String, Long> at) {
        List<Double> delays = new ArrayList<>();
        for (String marker : markers) {
            Long ack = acknowledgedAt.get(marker);
            Long seen = at.get(marker);
            if (ack != null && seen != null) {
                delays.add((seen - ack) / 1e6);
            }
        }
        delays.sort(Double::compare);
        return delays;
    }

    private static double median(List<Double> sorted) {
        return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2);
    }

    private static double p99(List<Double> sorted) {
        return sorted.isEmpty() ? Double.NaN : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
    }

    /** Notes when each marker's count is committed to the traffic topic: read from its end, read_committed. */
    private static Thread countedPoller(KafkaSettings kafka, String markerPrefix, Map<String, Long> countedAt,
                                        java.util.function.BooleanSupplier keepGoing) {
        Properties props = KafkaClients.consumerProperties(kafka, "bench-freshness-" + markerPrefix);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        String topic = kafka.topics().traffic();
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // the end is fixed now, before the first marker is sent
        Thread poller = new Thread(() -> {
            try (consumer) {
                while (keepGoing.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20))) {
                        String environment = environment(record.value());
                        if (environment != null && environment.startsWith(markerPrefix)) {
                            countedAt.putIfAbsent(environment, System.nanoTime());
                        }
                    }
                }
            } catch (org.apache.kafka.common.errors.InterruptException e) {
                // measured enough
            }
        }, "freshness-counted-poller");
        poller.start();
        return poller;
    }

    private static String environment(byte[] row) {
        try {
            JsonNode environment = row == null ? null : JSON.readTree(row).get("environment");
            return environment == null ? null : environment.asText();
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
