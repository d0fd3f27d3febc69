package io.sluice.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares topics that already exist with what Sluice would create, and says what differs
 * instead of running silently on a weaker setup: fewer partitions or replicas, a registry that is
 * not compacted (its projects would be deleted with age), a lower {@code min.insync.replicas}
 * (an acknowledged event could be lost with one broker). Nothing is changed: an operator may have
 * reasons, and a cluster-wide change is theirs to make.
 */
public final class TopicCheck {
    private static final Logger LOG = LoggerFactory.getLogger(TopicCheck.class);

    private TopicCheck() {
    }

    /**
     * One setting of one existing topic that is not what Sluice would create.
     *
     * @param serious weaker than Sluice's promises need (logged as an error, not a warning)
     */
    public record Difference(String topic, String setting, String expected, String actual, boolean serious, String why) {
        @Override
        public String toString() {
            return "topic " + topic + " has " + setting + "=" + actual + ", Sluice expects " + expected + ": " + why;
        }
    }

    /** Describes the topics, logs each difference (ERROR if serious, else WARN) and returns them. */
    static List<Difference> report(Admin admin, Collection<NewTopic> existing, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        List<Difference> differences = describe(admin, existing, timeout);
        for (Difference difference : differences) {
            if (difference.serious()) {
                LOG.error("{}", difference);
            } else {
                LOG.warn("{}", difference);
            }
        }
        return differences;
    }

    /** Describes the topics and returns how they differ, logging nothing. */
    static List<Difference> describe(Admin admin, Collection<NewTopic> existing, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        if (existing.isEmpty()) {
            return List.of();
        }
        List<String> names = existing.stream().map(NewTopic::name).toList();
        Map<String, TopicDescription> descriptions = admin.describeTopics(names).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        List<ConfigResource> resources = names.stream().map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        List<Difference> differences = new ArrayList<>();
        for (NewTopic wanted : existing) {
            TopicDescription description = descriptions.get(wanted.name());
            Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, wanted.name()));
            differences.addAll(differences(wanted, description.partitions().size(),
                    description.partitions().get(0).replicas().size(), name -> value(config, name)));
        }
        return differences;
    }

    /** How a topic with these partitions, replicas and settings differs from {@code wanted}. */
    static List<Difference> differences(NewTopic wanted, int partitions, int replicas,
                                        java.util.function.Function<String, String> actualConfig) {
        List<Difference> found = new ArrayList<>();
        String topic = wanted.name();
        if (partitions != wanted.numPartitions()) {
            found.add(new Difference(topic, "partitions", Integer.toString(wanted.numPartitions()), Integer.toString(partitions),
                    false, partitions < wanted.numPartitions()
                    ? "at most " + partitions + " processor threads share its work; kafka-topics.sh --alter --partitions raises it"
                    : "more than configured (SLUICE_TOPIC_PARTITIONS); harmless, but not what this deployment says"));
        }
        if (replicas < wanted.replicationFactor()) {
            found.add(new Difference(topic, "replication.factor", Integer.toString(wanted.replicationFactor()),
                    Integer.toString(replicas), true, "fewer copies than SLUICE_TOPIC_REPLICATION_FACTOR: losing "
                    + (replicas == 1 ? "its broker loses its data" : replicas + " brokers loses its data")));
        }
        Map<String, String> configs = wanted.configs() == null ? Map.of() : wanted.configs();
        String policy = configs.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        String actualPolicy = actualConfig.apply(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (policy != null && actualPolicy != null && !policies(policy).equals(policies(actualPolicy))) {
            boolean losesKeys = policies(policy).contains(TopicConfig.CLEANUP_POLICY_COMPACT)
                    && !policies(actualPolicy).contains(TopicConfig.CLEANUP_POLICY_COMPACT);
            found.add(new Difference(topic, TopicConfig.CLEANUP_POLICY_CONFIG, policy, actualPolicy, losesKeys, losesKeys
                    ? "not compacted, so records are deleted with age: what it holds (projects, latest counts) is lost after "
                    + "retention.ms; kafka-configs.sh --alter --add-config cleanup.policy=" + policy.replace(",", "\\,") + " fixes it"
                    : "records are kept longer than Sluice needs"));
        }
        String minIsr = configs.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        String actualMinIsr = actualConfig.apply(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        if (minIsr != null && actualMinIsr != null) {
            int expected = Integer.parseInt(minIsr);
            int actual = Integer.parseInt(actualMinIsr);
            if (actual < expected) {
                found.add(new Difference(topic, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, minIsr, actualMinIsr, true,
                        "a write counts as done with " + actual + " cop" + (actual == 1 ? "y" : "ies")
                                + ", so losing one broker can lose an event already answered 2xx; kafka-configs.sh --alter "
                                + "--add-config min.insync.replicas=" + expected + " fixes it (SLUICE_TOPIC_MIN_INSYNC_REPLICAS)"));
            } else if (actual > replicas) {
                found.add(new Difference(topic, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, minIsr, actualMinIsr, true,
                        "more than its " + replicas + " replicas: every write is refused (NotEnoughReplicas)"));
            }
        }
        String retention = configs.get(TopicConfig.RETENTION_MS_CONFIG);
        String actualRetention = actualConfig.apply(TopicConfig.RETENTION_MS_CONFIG);
        if (retention != null && actualRetention != null && !retention.equals(actualRetention)) {
            boolean shorter = Long.parseLong(actualRetention) >= 0 && Long.parseLong(actualRetention) < Long.parseLong(retention);
            found.add(new Difference(topic, TopicConfig.RETENTION_MS_CONFIG, retention, actualRetention, false, shorter
                    ? "records go sooner than SLUICE_TOPIC_RAW_RETENTION says: a replay can rebuild less"
                    : "records are kept longer than SLUICE_TOPIC_RAW_RETENTION says"));
        }
        return found;
    }

    private static Set<String> policies(String policy) {
        Set<String> set = new TreeSet<>();
        Arrays.stream(policy.split(",")).map(String::strip).filter(p -> !p.isEmpty()).forEach(set::add);
        return set;
    }

    private static String value(Config config, String name) {
        ConfigEntry entry = config == null ? null : config.get(name);
        return entry == null ? null : entry.value();
    }
}
