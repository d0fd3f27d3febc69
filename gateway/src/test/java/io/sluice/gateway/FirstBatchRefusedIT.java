package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaSettings;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.kafka.KafkaClients;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * A broker that refuses a partition's first batch (NOT_LEADER_OR_FOLLOWER, as right after the topic
 * was created) and takes the next answers OUT_OF_ORDER_SEQUENCE_NUMBER to every retry of that first
 * batch. The gateway's producer gives the batch up at its publish timeout (those clients get 503)
 * and the partition takes events again from the same producer, without a restart.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class FirstBatchRefusedIT {
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);
    /** Many partitions widen the moment the broker takes to lead them all, when a first batch is refused. */
    private static final int PARTITIONS = 16;
    private static final int BURST = 4_000;
    private static final int TOPICS = 10;

    @Test
    void aPartitionThatLostItsFirstBatchTakesEventsAgainFromTheSameProducer(Engines engines, @TempDir Path dir) throws Exception {
        KafkaSettings kafka = KafkaSettings.from(TestSettings.isolated("firstbatch", engines, dir).build());
        byte[] event = "{\"event_id\":\"0\"}".getBytes(StandardCharsets.UTF_8);
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            for (int round = 0; round < TOPICS; round++) {
                String topic = "first-batch-it." + round;
                admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
                try (Producer<byte[], byte[]> producer = EventPublisher.durableProducer(kafka, PUBLISH_TIMEOUT)) {
                    awaitMetadata(producer, topic);
                    Map<Integer, Exception> lost = new ConcurrentHashMap<>();
                    for (int i = 0; i < BURST; i++) {
                        int partition = i % PARTITIONS;
                        producer.send(new ProducerRecord<>(topic, partition, null, event), (metadata, error) -> {
                            if (error != null) {
                                lost.putIfAbsent(partition, error);
                            }
                        });
                    }
                    producer.flush();
                    if (lost.isEmpty()) {
                        continue;
                    }
                    Set<Integer> refused = new TreeSet<>(lost.keySet());
                    List<Future<RecordMetadata>> again = new ArrayList<>();
                    refused.forEach(partition -> again.add(producer.send(new ProducerRecord<>(topic, partition, null, event))));
                    Set<Integer> published = new TreeSet<>();
                    for (Future<RecordMetadata> sent : again) {
                        published.add(sent.get(30, TimeUnit.SECONDS).partition());
                    }
                    assertEquals(refused, published, "lost in the burst: " + lost);
                    return;
                }
            }
        }
        // Whether a first batch is refused is a race with the broker's leadership: on a quiet machine it may not
        // happen in any round, and then there is nothing to check (skipped, not passed).
        Assumptions.abort("no partition of " + TOPICS + " new topics lost a record: the state this test is about was not reached");
    }

    /** The gateway's producer never blocks for metadata (as its warm-up, asked until it has it). */
    private static void awaitMetadata(Producer<byte[], byte[]> producer, String topic) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                producer.partitionsFor(topic);
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(20);
            }
        }
    }
}
