package io.sluice.processor.ops;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.config.KafkaSettings;
import io.sluice.fatal.FatalErrors;
import io.sluice.kafka.KafkaClients;
import io.sluice.metrics.LastMeasurement;

/**
 * Raw records waiting for this instance's stream threads: over the partitions of the raw topics
 * whose tasks run here, the sum of each one's last stable offset (read_committed, as Streams
 * reads) minus the application's committed offset (without one, the partition's first offset,
 * where Streams starts). Records Streams has fetched and queued but not processed count, and the
 * number grows while processing stands still: the consumers' own records-lag stops at their last
 * fetch and leaves out what they have fetched and hold, up to buffered.records.per.partition each
 * (with processing paused, 0 for any backlog that fits). The repartition topics are left out:
 * their records are raw events already worked on once, so they would count an event twice, in
 * another unit; their own lag is kafka_consumer_fetch_manager_records_lag{topic="…-repartition"}.
 *
 * <p>Measured every second on a thread of its own with an admin client (a scrape must not wait
 * on Kafka); a round that fails (Kafka unreachable, Streams not running) leaves the last value
 * and its age grows. Each round first asks for the cluster's brokers and records an answer in
 * {@link KafkaContact} (readiness): the lag alone cannot tell, as it fails for reasons of
 * Streams' own and needs no broker when no raw partition is assigned here.
 */
public final class InputLag implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InputLag.class);
    private static final Duration REFRESH = Duration.ofSeconds(1);
    /** Longest one round may wait on Kafka; the next starts a second after it ends. */
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);

    private final Admin admin;
    private final KafkaStreams streams;
    private final String groupId;
    private final Set<String> rawTopics;
    private final LastMeasurement lag;
    private final KafkaContact kafkaContact;
    private final ScheduledExecutorService timer = FatalErrors.singleThreadScheduler("sluice-input-lag");

    private InputLag(Admin admin, KafkaStreams streams, String groupId, Set<String> rawTopics, LastMeasurement lag,
                     KafkaContact kafkaContact) {
        this.admin = admin;
        this.kafkaContact = kafkaContact;
        this.streams = streams;
        this.groupId = groupId;
        this.rawTopics = Set.copyOf(rawTopics);
        this.lag = lag;
    }

    /**
     * @param applicationId Streams' application id, the group whose committed offsets count
     * @param lag           where each measurement goes (the processor's meters read it)
     * @param kafkaContact  where each broker's answer goes (the admin port's readiness reads it)
     */
    public static InputLag start(KafkaSettings kafka, String applicationId, Set<String> rawTopics, KafkaStreams streams,
                                 LastMeasurement lag, KafkaContact kafkaContact) {
        InputLag inputLag = new InputLag(Admin.create(KafkaClients.adminProperties(kafka, applicationId + "-input-lag")),
                streams, applicationId, rawTopics, lag, kafkaContact);
        inputLag.timer.scheduleWithFixedDelay(inputLag::measure, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        return inputLag;
    }

    private void measure() {
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) QUERY_TIMEOUT.toMillis()))
                    .nodes().get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            kafkaContact.answered();
            lag.measured(waiting(ownedRawPartitions()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("input lag not measured: {}", e.toString()); // the age gauge tells; Kafka's own clients log the outage
        }
    }

    /** The raw partitions of this instance's active tasks (Streams' view after its last rebalance). */
    private Set<TopicPartition> ownedRawPartitions() {
        return streams.metadataForLocalThreads().stream()
                .flatMap(thread -> thread.activeTasks().stream())
                .flatMap(task -> task.topicPartitions().stream())
                .filter(partition -> rawTopics.contains(partition.topic()))
                .collect(Collectors.toSet());
    }

    private long waiting(Set<TopicPartition> partitions) throws Exception {
        if (partitions.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                        Map.of(groupId, new ListConsumerGroupOffsetsSpec().topicPartitions(partitions)),
                        new ListConsumerGroupOffsetsOptions().timeoutMs((int) QUERY_TIMEOUT.toMillis()))
                .partitionsToOffsetAndMetadata(groupId).get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> from = new HashMap<>();
        committed.forEach((partition, offset) -> {
            if (offset != null) {
                from.put(partition, offset.offset());
            }
        });
        Set<TopicPartition> neverCommitted = partitions.stream().filter(p -> !from.containsKey(p)).collect(Collectors.toSet());
        from.putAll(offsets(neverCommitted, OffsetSpec.earliest()));
        long sum = 0;
        for (Map.Entry<TopicPartition, Long> end : offsets(partitions, OffsetSpec.latest()).entrySet()) {
            sum += Math.max(0, end.getValue() - from.get(end.getKey()));
        }
        return sum;
    }

    private Map<TopicPartition, Long> offsets(Set<TopicPartition> partitions, OffsetSpec spec) throws Exception {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found = admin.listOffsets(
                        partitions.stream().collect(Collectors.toMap(p -> p, p -> spec)),
                        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs((int) QUERY_TIMEOUT.toMillis()))
                .all().get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        found.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        admin.close(Duration.ofSeconds(5));
    }
}
