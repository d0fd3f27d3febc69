package io.sluice.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaClusterIT {
    @TempDir
    Path dir;

    @Test
    void aKilledNodeLeavesTheOthersServingAndRejoinsInSync() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(dir, 3)) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
            }
            assertTrue(cluster.awaitInSync(List.of("t"), Duration.ofSeconds(30)), "three replicas in sync");
            try (KafkaProducer<String, String> producer = producer(cluster)) {
                producer.send(new ProducerRecord<>("t", "before")).get(30, TimeUnit.SECONDS);
                cluster.kill(2);
                // acks=all with min.insync.replicas 2: two of three nodes take writes.
                producer.send(new ProducerRecord<>("t", "during")).get(30, TimeUnit.SECONDS);
                cluster.restart(2);
                assertTrue(cluster.awaitInSync(List.of("t"), Duration.ofSeconds(60)), "node 2 back in sync: " + cluster);
                producer.send(new ProducerRecord<>("t", "after")).get(30, TimeUnit.SECONDS);
            }
            assertEquals(List.of("before", "during", "after"), readAll(cluster, 3));
        }
    }

    private static KafkaProducer<String, String> producer(KafkaCluster cluster) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000),
                new StringSerializer(), new StringSerializer());
    }

    private static List<String> readAll(KafkaCluster cluster, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers()), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition("t", 0)));
            consumer.seekToBeginning(List.of(new TopicPartition("t", 0)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(record -> values.add(record.value()));
            }
        }
        return values;
    }
}
