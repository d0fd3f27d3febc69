package io.sluice.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.opentest4j.AssertionFailedError;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;

/** Reads what a topic holds, from the beginning, to check what was published. */
public final class KafkaRecords {
    private KafkaRecords() {
    }

    /** Every record of the topic that matches, waiting up to {@code timeout} for {@code expected} of them. */
    public static List<ConsumerRecord<byte[], byte[]>> find(Engines engines, String topic, int expected,
                                                            Duration timeout, Predicate<ConsumerRecord<byte[], byte[]>> matching) {
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = readCommitted(engines)) {
            fromTheBeginning(consumer, topic);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (found.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(100)).forEach(record -> {
                    if (matching.test(record)) {
                        found.add(record);
                    }
                });
            }
        }
        return found;
    }

    /**
     * Every record of the topic that matches, read up to the end offsets taken when the read starts:
     * complete as of then, however slowly the consumer is assigned and fetches; fails if that end
     * is not reached within {@code timeout}.
     */
    public static List<ConsumerRecord<byte[], byte[]>> upToEnd(Engines engines, String topic, Duration timeout,
                                                               Predicate<ConsumerRecord<byte[], byte[]>> matching) {
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = readCommitted(engines)) {
            List<TopicPartition> partitions = fromTheBeginning(consumer, topic);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout); // read_committed: the last stable offsets
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionFailedError("did not read " + topic + " up to " + ends + " within " + timeout.toMillis() + " ms");
                }
                consumer.poll(Duration.ofMillis(100)).forEach(record -> {
                    if (matching.test(record)) {
                        found.add(record);
                    }
                });
            }
        }
        return found;
    }

    private static KafkaConsumer<byte[], byte[]> readCommitted(Engines engines) {
        Properties props = KafkaClients.consumerProperties(KafkaSettings.at(engines.kafkaBootstrapServers()), null);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Assigns every partition of the topic, each from its beginning, and returns them. */
    private static List<TopicPartition> fromTheBeginning(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    public static Predicate<ConsumerRecord<byte[], byte[]>> withHeader(String name, String value) {
        return record -> value.equals(header(record, name));
    }

    public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
