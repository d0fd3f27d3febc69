package io.sluice.cli.deadletters;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;

/**
 * Reads the dead-letter topic (and, for a dead letter without its value, the original) with a plain
 * consumer: no group, nothing committed, so looking changes nothing for anyone. Only committed
 * records are read: the processor writes dead letters in its transactions.
 */
final class DeadLetterReader implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final Duration timeout;

    DeadLetterReader(KafkaSettings kafka, Duration timeout) {
        Properties props = KafkaClients.consumerProperties(kafka, "sluice-dead-letters", timeout);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.topic = kafka.topics().deadLetters();
        this.timeout = timeout;
    }

    String topic() {
        return topic;
    }

    /** Every dead letter written since {@code since} up to the end of the topic now, in offset order per partition. */
    void readSince(Instant since, Consumer<DeadLetter> each) {
        List<TopicPartition> partitions = partitions(topic);
        consumer.assign(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        Map<TopicPartition, Long> times = new HashMap<>();
        partitions.forEach(partition -> times.put(partition, since.toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(times, timeout);
        List<TopicPartition> unread = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp first = start.get(partition);
            if (first != null && first.offset() < end.get(partition)) {
                consumer.seek(partition, first.offset());
                unread.add(partition);
            }
        }
        consumer.assign(unread);
        long quietSince = System.nanoTime();
        while (!unread.isEmpty()) {
            boolean progress = false;
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                progress = true;
                if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                    each.accept(DeadLetter.of(record));
                }
            }
            unread.removeIf(partition -> consumer.position(partition, timeout) >= end.get(partition));
            consumer.assign(unread);
            if (progress) {
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince > timeout.toNanos()) {
                throw new IllegalStateException("Kafka sent nothing of " + topic + " for " + timeout.toSeconds() + " s");
            }
        }
    }

    /** The dead letter at {@code partition@offset}, if there is one. */
    Optional<DeadLetter> at(int partition, long offset) {
        return record(topic, partition, offset).map(DeadLetter::of);
    }

    /** The record at that place of any topic, if still there (retention may have removed it). */
    Optional<ConsumerRecord<byte[], byte[]>> record(String topicName, int partition, long offset) {
        TopicPartition place = new TopicPartition(topicName, partition);
        if (partition < 0 || partition >= partitions(topicName).size()) {
            return Optional.empty();
        }
        consumer.assign(List.of(place));
        Long end = consumer.endOffsets(List.of(place), timeout).get(place);
        if (offset >= end || offset < consumer.beginningOffsets(List.of(place), timeout).get(place)) {
            return Optional.empty();
        }
        consumer.seek(place, offset);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && consumer.position(place, timeout) <= offset) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (record.offset() == offset) {
                    return Optional.of(record);
                }
                if (record.offset() > offset) {
                    return Optional.empty(); // an aborted write or a transaction marker
                }
            }
        }
        return Optional.empty();
    }

    private List<TopicPartition> partitions(String topicName) {
        List<PartitionInfo> infos = consumer.partitionsFor(topicName, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("Kafka has no topic " + topicName + " (./sluice doctor checks the topics)");
        }
        return infos.stream().map(info -> new TopicPartition(topicName, info.partition())).sorted(
                java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
