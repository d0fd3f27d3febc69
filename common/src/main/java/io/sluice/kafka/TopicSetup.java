package io.sluice.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Aggregate;
import io.sluice.config.Topics;

/**
 * Creates Sluice's topics if they are missing, with {@code min.insync.replicas} from
 * {@link Topics#effectiveMinInsyncReplicas()}. Of an existing topic only the record size limit is
 * raised, if lower than Sluice needs (a cluster set up before the limit was raised); its other
 * settings are left as they are, and where they are weaker than what Sluice would create that is
 * logged ({@link TopicCheck}). Gateway, processor and CLI call it at start, so a new cluster,
 * or an upgrade, needs no manual step.
 */
public final class TopicSetup {
    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);

    /**
     * Largest record batch the topics of events take (the broker's default is about 1 MiB): well
     * above the largest event the gateway accepts, so an accepted event is never refused by Kafka.
     */
    public static final int MAX_EVENT_RECORD_BYTES = 8 * 1024 * 1024;

    /**
     * How long the servers wait for each answer from Kafka here (and for their other startup
     * checks of topics), their clients keeping Kafka's defaults.
     */
    public static final Duration SERVER_TIMEOUT = Duration.ofSeconds(30);

    private TopicSetup() {
    }

    /**
     * Creates the missing topics, raises the record size limit of existing ones, and logs how
     * existing topics differ from what Sluice would create (see {@link TopicCheck}).
     *
     * @return those differences, also logged
     * @throws KafkaStartupFailure when Kafka cannot be reached, refuses the credentials or the request
     */
    public static List<TopicCheck.Difference> ensureTopics(KafkaSettings kafka) {
        return ensureTopics(kafka, SERVER_TIMEOUT);
    }

    /**
     * As {@link #ensureTopics(KafkaSettings)}, with every wait for Kafka, the admin client's own
     * included, ending after {@code timeout}: Kafka unreachable fails after about that long (not
     * after the client's default of 60 s while the message says less).
     */
    public static List<TopicCheck.Difference> ensureTopics(KafkaSettings kafka, Duration timeout) {
        return ensureTopics(kafka, KafkaClients.adminProperties(kafka, null, timeout), timeout);
    }

    private static List<TopicCheck.Difference> ensureTopics(KafkaSettings kafka, Properties adminProperties, Duration timeout) {
        List<NewTopic> wanted = wanted(kafka.topics());
        Admin admin;
        try {
            admin = Admin.create(adminProperties);
        } catch (KafkaException e) {
            throw KafkaStartupFailure.of("cannot create a Kafka client", e, kafka, timeout.toSeconds());
        }
        try (admin) {
            Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            List<NewTopic> missing = wanted.stream().filter(t -> !existing.contains(t.name())).toList();
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e; // another instance creating them at the same moment is fine
                    }
                }
            }
            List<NewTopic> present = wanted.stream().filter(t -> existing.contains(t.name())).toList();
            raiseRecordLimits(admin, present, kafka, timeout);
            return TopicCheck.report(admin, present, timeout);
        } catch (ExecutionException | TimeoutException e) {
            throw KafkaStartupFailure.of("cannot create Sluice's topics", e, kafka, timeout.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /**
     * Raises {@code max.message.bytes} of existing topics that have less than Sluice sets on the
     * topics it creates: with the broker's default (about 1 MiB) an accepted event near the
     * gateway's limit would be refused by Kafka, and its request answered 503 on every retry.
     * Where the change is refused (no ALTER_CONFIGS permission, say) it logs what to run, and goes
     * on: the rest works, only the largest events are refused.
     */
    private static void raiseRecordLimits(Admin admin, Collection<NewTopic> existing, KafkaSettings kafka, Duration timeout)
            throws InterruptedException {
        List<ConfigResource> resources = existing.stream()
                .filter(t -> t.configs() != null && t.configs().containsKey(TopicConfig.MAX_MESSAGE_BYTES_CONFIG))
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t.name())).toList();
        if (resources.isEmpty()) {
            return;
        }
        Map<ConfigResource, Config> current;
        try {
            current = admin.describeConfigs(resources).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("cannot read the {} of Sluice's topics ({}): check each is at least {}", TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    e instanceof ExecutionException ? e.getCause() : e, MAX_EVENT_RECORD_BYTES);
            return;
        }
        for (ConfigResource resource : resources) {
            ConfigEntry entry = current.get(resource).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            long bytes = entry == null || entry.value() == null ? 0 : Long.parseLong(entry.value());
            if (bytes >= MAX_EVENT_RECORD_BYTES) {
                continue;
            }
            AlterConfigOp raise = new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    Integer.toString(MAX_EVENT_RECORD_BYTES)), AlterConfigOp.OpType.SET);
            try {
                admin.incrementalAlterConfigs(Map.of(resource, List.of(raise))).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info("raised {} of topic {} from {} to {}", TopicConfig.MAX_MESSAGE_BYTES_CONFIG, resource.name(),
                        bytes, MAX_EVENT_RECORD_BYTES);
            } catch (ExecutionException | TimeoutException e) {
                LOG.error("topic {} takes records of at most {} bytes ({}), Sluice needs {}: events larger than that are "
                                + "refused (503). Cannot raise it ({}); run: kafka-configs.sh --bootstrap-server {} --alter "
                                + "--entity-type topics --entity-name {} --add-config {}={}",
                        resource.name(), bytes, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, MAX_EVENT_RECORD_BYTES,
                        e instanceof ExecutionException ? e.getCause() : e, kafka.bootstrapServers(), resource.name(),
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG, MAX_EVENT_RECORD_BYTES);
            }
        }
    }

    /** The topics Sluice creates, with their partitions and settings. */
    private static List<NewTopic> wanted(Topics topics) {
        String rawRetention = Long.toString(topics.rawRetention().toMillis());
        // Kafka deletes whole segments: a segment rolled daily bounds how long a record outlives its
        // retention (an erasure request's answer) to a day, not the default week.
        String rawSegment = Long.toString(Math.min(topics.rawRetention().toMillis(), java.time.Duration.ofDays(1).toMillis()));
        Map<String, String> raw = Map.of(TopicConfig.RETENTION_MS_CONFIG, rawRetention,
                TopicConfig.SEGMENT_MS_CONFIG, rawSegment,
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
        wanted.add(topic(topics.sessions(), topics.partitions(), topics, raw));
        wanted.add(topic(topics.history(), topics.partitions(), topics, raw));
        wanted.add(topic(topics.errorHistory(), topics.partitions(), topics, raw));
        for (Aggregate aggregate : Aggregate.ALL) {
            wanted.add(topic(topics.of(aggregate), topics.partitions(), topics, latestPerKey));
        }
        wanted.add(topic(topics.deadLetters(), 1, topics, raw));
        // One partition: the registry is small and every gateway reads all of it.
        wanted.add(topic(topics.projects(), 1, topics, compacted));
        // One partition, read whole by every gateway; only the last seconds matter, a minute is kept.
        wanted.add(topic(topics.quotaUsage(), 1, topics, Map.of(TopicConfig.RETENTION_MS_CONFIG, "60000",
                TopicConfig.SEGMENT_MS_CONFIG, "60000")));

        return wanted;
    }

    /**
     * How Sluice's topics differ from what it would create, missing ones included (setting
     * {@code exists}), without creating, changing or logging anything: for {@code ./sluice doctor}.
     */
    public static List<TopicCheck.Difference> check(Admin admin, Topics topics, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        List<TopicCheck.Difference> found = new ArrayList<>();
        List<NewTopic> present = new ArrayList<>();
        for (NewTopic topic : wanted(topics)) {
            if (existing.contains(topic.name())) {
                present.add(topic);
            } else {
                found.add(new TopicCheck.Difference(topic.name(), "exists", "yes", "no", true,
                        "the gateway and the processor create Sluice's topics when they start (with the rights to)"));
            }
        }
        found.addAll(TopicCheck.describe(admin, present, timeout));
        return found;
    }

    private static NewTopic topic(String name, int partitions, Topics topics, Map<String, String> configs) {
        Map<String, String> all = new java.util.HashMap<>(configs);
        all.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(topics.effectiveMinInsyncReplicas()));
        return new NewTopic(name, partitions, topics.replicationFactor()).configs(all);
    }
}
