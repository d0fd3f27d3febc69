package io.sluice.ops;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.projects.ProjectRegistry;

/**
 * Counts what happened to every request per project, outcome ({@code accepted} or the error code)
 * and minute, in memory, and publishes the absolute counts of this gateway every few seconds to
 * the outcomes topic; the processor's sink writes them to {@code sluice.outcomes_1m}. So a
 * platform can tell a tenant exactly what was dropped and why. Requests naming an unknown token
 * count under the project "" (so garbage tokens cannot grow the table).
 */
public final class Outcomes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Outcomes.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long KEEP_MINUTES = 5;

    private final String gatewayId = UUID.randomUUID().toString().substring(0, 8);
    private final ProjectRegistry registry;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Map<Key, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<Key, Long> published = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher;

    private record Key(String project, String outcome, long minute) {
    }

    public Outcomes(ProjectRegistry registry, Producer<byte[], byte[]> producer, String topic, Duration every) {
        this.registry = registry;
        this.producer = producer;
        this.topic = topic;
        this.flusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "sluice-outcomes");
            thread.setDaemon(true);
            return thread;
        });
        flusher.scheduleWithFixedDelay(this::flush, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** @param token the token in the request's path, or null when there was none */
    public void record(String token, String outcome) {
        String project = token != null && registry.find(token) != null ? token : "";
        long minute = System.currentTimeMillis() / 60_000 * 60;
        counts.computeIfAbsent(new Key(project, outcome, minute), k -> new LongAdder()).increment();
    }

    /** Publishes every count that changed since the last flush; forgets minutes long past. */
    void flush() {
        long oldest = System.currentTimeMillis() / 60_000 * 60 - KEEP_MINUTES * 60;
        try {
            counts.forEach((key, count) -> {
                long total = count.sum();
                if (!Long.valueOf(total).equals(published.get(key))) {
                    String row = JSON.createObjectNode().put("project", key.project()).put("minute", key.minute())
                            .put("outcome", key.outcome()).put("gateway", gatewayId).put("events", total)
                            .put("version", total).toString();
                    String recordKey = key.project() + '/' + key.outcome() + '/' + key.minute() + '/' + gatewayId;
                    producer.send(new ProducerRecord<>(topic, recordKey.getBytes(StandardCharsets.UTF_8),
                            row.getBytes(StandardCharsets.UTF_8)));
                    published.put(key, total);
                }
            });
            counts.keySet().removeIf(key -> key.minute() < oldest && Long.valueOf(counts.get(key).sum()).equals(published.get(key)));
            published.keySet().removeIf(key -> !counts.containsKey(key));
        } catch (RuntimeException e) {
            LOG.warn("could not publish outcome counts to {} (will retry): {}", topic, e.toString());
        }
    }

    @Override
    public void close() {
        flusher.shutdown();
        try {
            flusher.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
        producer.flush();
    }
}
