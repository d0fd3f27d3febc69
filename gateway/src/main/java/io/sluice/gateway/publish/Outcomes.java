package io.sluice.gateway.publish;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.OutcomeRow;
import io.sluice.projects.ProjectRegistry;

/**
 * Counts what happened to every request per project, {@link Outcome} and minute, in memory, and
 * publishes the absolute counts of this gateway every interval to the outcomes topic, as
 * {@link OutcomeRow}s; the processor's sink writes them to {@code sluice.outcomes_1m}. So a
 * platform can tell a tenant exactly what was dropped and why. Requests naming an unknown token
 * count under the project "" (so garbage tokens cannot grow the table).
 */
public final class Outcomes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Outcomes.class);
    private static final long KEEP_MINUTES = 5;

    private final String gatewayId = UUID.randomUUID().toString().substring(0, 8);
    private final Predicate<String> knownToken;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Map<Key, LongAdder> counts = new ConcurrentHashMap<>();
    /** The count Kafka acknowledged per key: set in the send's callback, never before. */
    private final Map<Key, Long> published = new ConcurrentHashMap<>();
    /** The count being sent per key, so a flush does not send it again while it is on its way. */
    private final Map<Key, Long> sending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher;

    private record Key(String project, Outcome outcome, long minute) {
    }

    public Outcomes(ProjectRegistry registry, Producer<byte[], byte[]> producer, String topic, Duration every) {
        this(token -> registry.find(token) != null, producer, topic, every);
    }

    Outcomes(Predicate<String> knownToken, Producer<byte[], byte[]> producer, String topic, Duration every) {
        this.knownToken = knownToken;
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
    public void record(String token, Outcome outcome) {
        String project = token != null && knownToken.test(token) ? token : "";
        long minute = System.currentTimeMillis() / 60_000 * 60;
        counts.computeIfAbsent(new Key(project, outcome, minute), k -> new LongAdder()).increment();
    }

    /**
     * Sends every count that Kafka has not acknowledged yet. Rows are absolute counts (the sink
     * keeps the highest version per key), so a count whose send failed is simply sent again with
     * the next flush, and sending one twice cannot count anything twice. Forgets minutes long past
     * once their last count is acknowledged.
     */
    void flush() {
        long oldest = System.currentTimeMillis() / 60_000 * 60 - KEEP_MINUTES * 60;
        try {
            counts.forEach((key, count) -> {
                long total = count.sum();
                if (total == published.getOrDefault(key, -1L) || total == sending.getOrDefault(key, -1L)) {
                    return;
                }
                OutcomeRow row = OutcomeRow.of(key.project(), key.minute(), key.outcome(), gatewayId, total);
                sending.put(key, total);
                try {
                    producer.send(new ProducerRecord<>(topic, row.key(), row.json()),
                            (metadata, error) -> acknowledged(key, total, error));
                } catch (RuntimeException e) {
                    acknowledged(key, total, e);
                }
            });
            counts.keySet().removeIf(key -> key.minute() < oldest && Long.valueOf(counts.get(key).sum()).equals(published.get(key)));
            published.keySet().removeIf(key -> !counts.containsKey(key));
        } catch (RuntimeException e) {
            LOG.warn("could not publish outcome counts to {} (will retry): {}", topic, e.toString());
        }
    }

    private void acknowledged(Key key, long total, Exception error) {
        sending.remove(key, total);
        if (error == null) {
            published.merge(key, total, Math::max);
        } else {
            LOG.debug("outcome count not published to {} (sent again with the next flush): {}", topic, error.toString());
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
