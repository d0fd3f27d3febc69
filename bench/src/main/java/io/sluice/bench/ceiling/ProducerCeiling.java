package io.sluice.bench.ceiling;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;

import io.sluice.bench.load.Payloads;
import io.sluice.config.KafkaSettings;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.kafka.KafkaClients;

/**
 * Ceiling of publishing: the gateway's durable producer alone, as fast as it can, sending
 * {@link Payloads#VARIED} different transactions in turn (one body sent again and again would compress to
 * almost nothing, which no real load does).
 */
public final class ProducerCeiling {
    /** The bench's own topic, so the pipeline's topics hold only what the gateway published. */
    private static final String TOPIC = "bench.producer-ceiling";

    private ProducerCeiling() {
    }

    /** Records/s over {@code seconds}. */
    public static double measure(KafkaSettings kafka, List<byte[]> bodies, int seconds) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = (KafkaProducer<byte[], byte[]>) EventPublisher.durableProducer(kafka,
                Duration.ofSeconds(30))) {
            awaitMetadata(producer);
            byte[] key = null; // spread over the partitions, like events of many projects
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long start = System.nanoTime();
            long sent = 0;
            while (System.nanoTime() < deadline) {
                try {
                    producer.send(new ProducerRecord<>(TOPIC, null, key, bodies.get((int) (sent % bodies.size()))));
                } catch (TimeoutException bufferFull) {
                    continue; // the buffer is full for a moment (max.block.ms is short on purpose)
                }
                sent++;
            }
            producer.flush();
            return sent / ((System.nanoTime() - start) / 1e9);
        }
    }

    /**
     * Metadata first, as the gateway does. Each try may wait only the producer's short max.block.ms,
     * which a just-created topic on a busy machine can take longer than (a run failed that way).
     */
    private static void awaitMetadata(KafkaProducer<byte[], byte[]> producer) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                producer.partitionsFor(TOPIC);
                return;
            } catch (TimeoutException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(100);
            }
        }
    }
}
