package io.sluice.cli.deadletters;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import io.sluice.config.KafkaSettings;
import io.sluice.events.EventHeaders;
import io.sluice.kafka.KafkaClients;

/**
 * Sends dead letters back where they came from, after the cause is fixed: a raw event to its raw
 * topic and partition (the processor drops an event id it has seen within the horizon, so replaying
 * twice counts once), a row the sink could not store to its output topic and partition (the tables
 * replace a row by its key, so it is stored once). The record goes back as it was: key, value, the
 * original headers (the dead letter's own left out), and the event time as its timestamp.
 */
final class DeadLetterReplay {
    private static final int PROGRESS_EVERY = 1000;

    /** Which dead letters: reason containing {@code reason}, of {@code project}; null for any. */
    record Filter(String reason, String project) {
        boolean matches(DeadLetter letter) {
            return (reason == null || letter.reason().contains(reason)) && (project == null || project.equals(letter.project()));
        }
    }

    /** @param sent per topic; @param unreplayable dead letters with no source, or whose omitted value is gone */
    record Summary(long read, long matching, Map<String, Long> sent, long unreplayable) {
        long sentTotal() {
            return sent.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final KafkaSettings kafka;
    private final Duration timeout;
    private final PrintStream out;

    DeadLetterReplay(KafkaSettings kafka, Duration timeout, PrintStream out) {
        this.kafka = kafka;
        this.timeout = timeout;
        this.out = out;
    }

    Summary run(Instant since, Filter filter, boolean dryRun) throws Exception {
        Properties props = KafkaClients.producerProperties(kafka, "sluice-dead-letters-replay", timeout);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 * 1024 * 1024));
        Map<String, Long> sent = new TreeMap<>();
        long[] counts = new long[4]; // read, matching, unreplayable, done
        try (DeadLetterReader reader = new DeadLetterReader(kafka, timeout);
             KafkaProducer<byte[], byte[]> producer = dryRun ? null : new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            // Counted first, then sent as read: dead letters may be many and large, none is held longer than its send.
            reader.readSince(since, letter -> {
                counts[0]++;
                counts[1] += filter.matches(letter) ? 1 : 0;
            });
            out.println("Replaying " + counts[1] + " of " + counts[0] + " dead letters since " + since
                    + (dryRun ? " (dry run: nothing is sent)" : ""));
            List<Future<RecordMetadata>> pending = new ArrayList<>();
            List<DeadLetter> withoutValue = new ArrayList<>();
            reader.readSince(since, letter -> {
                if (!filter.matches(letter)) {
                    return;
                }
                if (letter.valueOmitted() != null && letter.source() != null) {
                    withoutValue.add(letter.withoutPayload()); // fetched after this read, from where the original is
                    return;
                }
                send(original(letter), producer, sent, counts, pending);
                progress(counts, pending, dryRun);
            });
            for (DeadLetter letter : withoutValue) {
                send(fetched(letter, reader), producer, sent, counts, pending);
                progress(counts, pending, dryRun);
            }
            awaitAll(pending);
        }
        return new Summary(counts[0], counts[1], sent, counts[2]);
    }

    private static void send(Optional<ProducerRecord<byte[], byte[]>> record, KafkaProducer<byte[], byte[]> producer,
                             Map<String, Long> sent, long[] counts, List<Future<RecordMetadata>> pending) {
        counts[3]++;
        if (record.isEmpty()) {
            counts[2]++;
            return;
        }
        if (producer != null) {
            pending.add(producer.send(record.get()));
        }
        sent.merge(record.get().topic(), 1L, Long::sum);
    }

    private void progress(long[] counts, List<Future<RecordMetadata>> pending, boolean dryRun) {
        if (counts[3] % PROGRESS_EVERY != 0) {
            return;
        }
        try {
            awaitAll(pending);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka did not take a record back: " + e.getMessage(), e);
        }
        out.println("· " + counts[3] + "/" + counts[1] + (dryRun ? " would be sent" : " sent"));
    }

    /** The record to send back; empty when the dead letter does not say where it came from. */
    private Optional<ProducerRecord<byte[], byte[]>> original(DeadLetter letter) {
        DeadLetter.Source source = letter.source();
        if (source == null) {
            out.println("· " + letter.address() + ": no source recorded, cannot be sent back");
            return Optional.empty();
        }
        return Optional.of(new ProducerRecord<>(source.topic(), source.partition(), timestamp(letter), letter.key(), letter.value(),
                letter.originalHeaders()));
    }

    /** A dead letter too large to carry its value: the original, still at its source offset unless retention removed it. */
    private Optional<ProducerRecord<byte[], byte[]>> fetched(DeadLetter letter, DeadLetterReader reader) {
        DeadLetter.Source source = letter.source();
        Optional<ConsumerRecord<byte[], byte[]>> original = reader.record(source.topic(), source.partition(), source.offset());
        if (original.isEmpty()) {
            out.println("· " + letter.address() + ": its value was too large to carry and " + source + " is gone");
            return Optional.empty();
        }
        ConsumerRecord<byte[], byte[]> record = original.get();
        return Optional.of(new ProducerRecord<>(source.topic(), source.partition(), record.timestamp(), record.key(),
                record.value(), new RecordHeaders(record.headers().toArray())));
    }

    /** The event time the raw record had (its header), else the dead letter's own time. */
    private static Long timestamp(DeadLetter letter) {
        String eventTime = EventHeaders.get(letter.originalHeaders(), EventHeaders.EVENT_TIME);
        try {
            return eventTime != null ? Long.parseLong(eventTime) : letter.time().toEpochMilli();
        } catch (NumberFormatException e) {
            return letter.time().toEpochMilli();
        }
    }

    private void awaitAll(List<Future<RecordMetadata>> pending) throws InterruptedException, ExecutionException, TimeoutException {
        for (Future<RecordMetadata> future : pending) {
            future.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
        pending.clear();
    }
}
