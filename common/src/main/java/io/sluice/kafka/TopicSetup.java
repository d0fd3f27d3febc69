package io.sluice.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Topics;

/**
 * Creates Sluice's topics if they are missing; existing topics are left as they are. Gateway,
 * processor and CLI call it at start, so a new cluster needs no manual step.
 */
public final class TopicSetup {
    /**
     * Largest record batch the topics of events take (the broker's default is about 1 MiB): well
     * above the largest event the gateway accepts, so an accepted event is never refused by Kafka.
     */
    public static final int MAX_EVENT_RECORD_BYTES = 8 * 1024 * 1024;

    private TopicSetup() {
    }

    public static void ensureTopics(KafkaSettings kafka) {
        Topics topics = kafka.topics();
        String rawRetention = Long.toString(topics.rawRetention().toMillis());
        Map<String, String> raw = Map.of(TopicConfig.RETENTION_MS_CONFIG, rawRetention,
                TopicConfig.COMPRESSION_TYPE_CONFIG, "producer",
                TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(MAX_EVENT_RECORD_BYTES));
        Map<String, String> compacted = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        // Per-minute rows: only the newest per key matters, and old minutes may go with the raw data.
        Map<String, String> latestPerKey = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, rawRetention);
        List<NewTopic> wanted = new ArrayList<>();
        wanted.add(topic(topics.transactions(), topics.partitions(), topics, raw));
        wanted.add(topic(topics.errors(), topics.partitions(), topics, raw));
        wanted.add(topic(topics.history(), topics.partitions(), topics, raw));
        wanted.add(topic(topics.traffic(), topics.partitions(), topics, latestPerKey));
        wanted.add(topic(topics.errorHistory(), topics.partitions(), topics, raw));
        wanted.add(topic(topics.errors1m(), topics.partitions(), topics, latestPerKey));
        wanted.add(topic(topics.outcomes(), topics.partitions(), topics, latestPerKey));
        wanted.add(topic(topics.deadLetters(), 1, topics, raw));
        // One partition: the registry is small and every gateway reads all of it.
        wanted.add(topic(topics.projects(), 1, topics, compacted));

        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = wanted.stream().filter(t -> !existing.contains(t.name())).toList();
            if (missing.isEmpty()) {
                return;
            }
            try {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e; // another instance creating them at the same moment is fine
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create Sluice's topics on Kafka at " + kafka.bootstrapServers(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    private static NewTopic topic(String name, int partitions, Topics topics, Map<String, String> configs) {
        return new NewTopic(name, partitions, topics.replicationFactor()).configs(configs);
    }
}
