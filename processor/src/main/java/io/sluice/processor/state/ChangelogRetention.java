package io.sluice.processor.state;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.KafkaStartupFailure;

/**
 * Keeps the window stores' changelog topics at least as long as the stores need them. Kafka
 * Streams sets a windowed changelog's {@code retention.ms} (the store's retention plus
 * {@code windowstore.changelog.additional.retention.ms}) only when it creates the topic. Once the
 * horizon or the late margin grew, Kafka would delete records a restore still needs: ids already
 * seen (a retry counted twice) and the counts of open minutes.
 *
 * <p>So before Streams starts, each existing changelog kept shorter than its store now needs is
 * raised to that; one kept longer (an operator's choice, or forever) is left as it is, and one that
 * does not exist yet is Streams' to create. Where Kafka refuses, startup fails with the command to
 * run: going on would silently break the counts after the next restore.
 */
public final class ChangelogRetention {
    private static final Logger LOG = LoggerFactory.getLogger(ChangelogRetention.class);

    private ChangelogRetention() {
    }

    /** A changelog topic and the {@code retention.ms} its store needs. */
    record Need(String topic, Duration storeRetention, long additionalMs) {
        long retentionMs() {
            try {
                return Math.addExact(storeRetention.toMillis(), additionalMs);
            } catch (ArithmeticException e) {
                return Long.MAX_VALUE; // as Kafka Streams computes it
            }
        }
    }

    /** A changelog kept {@code currentMs} (null: the broker did not say) where its store needs more. */
    record Shortfall(Need need, Long currentMs) {
    }

    /**
     * Raises the {@code retention.ms} of the existing changelogs of {@code storeRetentions}' stores
     * where lower than needed, everything within {@code timeout}.
     *
     * @param storeRetentions the window stores' retentions by store name, as the topology builds them
     * @param streamsProperties the application's Streams properties (for the additional retention)
     * @throws KafkaStartupFailure when Kafka does not answer in time or refuses a raise
     */
    public static void ensure(KafkaSettings kafka, String applicationId, Map<String, Duration> storeRetentions,
                              Properties streamsProperties, Duration timeout) {
        List<Need> needs = needs(applicationId, storeRetentions, additionalRetentionMs(streamsProperties));
        long deadline = System.nanoTime() + timeout.toNanos();
        Admin admin;
        try {
            admin = Admin.create(KafkaClients.adminProperties(kafka, null, timeout));
        } catch (KafkaException e) {
            throw KafkaStartupFailure.of("cannot create a Kafka client", e, kafka, timeout.toSeconds());
        }
        try (admin) {
            List<Shortfall> shortfalls = shortfalls(admin, needs, deadline);
            raise(admin, shortfalls, kafka, deadline, timeout);
        } catch (ExecutionException | TimeoutException e) {
            throw KafkaStartupFailure.of("cannot read the " + TopicConfig.RETENTION_MS_CONFIG + " of the processor's changelog topics "
                    + needs.stream().map(Need::topic).collect(Collectors.joining(", ")), e, kafka, timeout.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the changelog topics' retention", e);
        }
    }

    /** Each store's changelog, by Kafka Streams' naming, in store name order. */
    static List<Need> needs(String applicationId, Map<String, Duration> storeRetentions, long additionalMs) {
        return storeRetentions.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(store -> new Need(applicationId + "-" + store.getKey() + "-changelog", store.getValue(), additionalMs))
                .toList();
    }

    /** What Streams adds to a window store's retention for its changelog: as configured, or Streams' default (1 day). */
    static long additionalRetentionMs(Properties streamsProperties) {
        String name = StreamsConfig.WINDOW_STORE_CHANGE_LOG_ADDITIONAL_RETENTION_MS_CONFIG;
        Object value = streamsProperties.get(name);
        if (value == null) {
            value = StreamsConfig.configDef().defaultValues().get(name);
        }
        return Long.parseLong(value.toString().strip());
    }

    /** Too short: kept less than needed; a negative retention keeps records forever. */
    static boolean tooShort(Long currentMs, long neededMs) {
        return currentMs == null || (currentMs >= 0 && currentMs < neededMs);
    }

    private static List<Shortfall> shortfalls(Admin admin, List<Need> needs, long deadline)
            throws ExecutionException, TimeoutException, InterruptedException {
        Set<String> existing = admin.listTopics().names().get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
        List<Need> present = needs.stream().filter(need -> existing.contains(need.topic())).toList();
        if (present.isEmpty()) {
            return List.of();
        }
        Map<ConfigResource, Config> configs = admin.describeConfigs(present.stream().map(need -> resource(need.topic())).toList())
                .all().get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
        List<Shortfall> shortfalls = new ArrayList<>();
        for (Need need : present) {
            Config config = configs.get(resource(need.topic()));
            ConfigEntry entry = config == null ? null : config.get(TopicConfig.RETENTION_MS_CONFIG);
            Long current = entry == null || entry.value() == null ? null : Long.parseLong(entry.value());
            if (tooShort(current, need.retentionMs())) {
                shortfalls.add(new Shortfall(need, current));
            }
        }
        return shortfalls;
    }

    private static void raise(Admin admin, List<Shortfall> shortfalls, KafkaSettings kafka, long deadline, Duration timeout)
            throws InterruptedException {
        if (shortfalls.isEmpty()) {
            return;
        }
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new LinkedHashMap<>();
        for (Shortfall shortfall : shortfalls) {
            changes.put(resource(shortfall.need().topic()), List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG,
                    Long.toString(shortfall.need().retentionMs())), AlterConfigOp.OpType.SET)));
        }
        Map<ConfigResource, KafkaFuture<Void>> results = admin.incrementalAlterConfigs(changes).values();
        List<Shortfall> refused = new ArrayList<>();
        Exception firstRefusal = null;
        for (Shortfall shortfall : shortfalls) {
            try {
                results.get(resource(shortfall.need().topic())).get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
                LOG.warn("raised {} of changelog topic {} from {} to {}: horizon + late margin grew, and Kafka Streams sets it only "
                                + "when it creates the topic (a restore would miss what Kafka deleted, counting retries twice)",
                        TopicConfig.RETENTION_MS_CONFIG, shortfall.need().topic(), describe(shortfall.currentMs()),
                        describe(shortfall.need().retentionMs()));
            } catch (ExecutionException | TimeoutException e) {
                refused.add(shortfall);
                firstRefusal = firstRefusal == null ? e : firstRefusal;
            }
        }
        if (!refused.isEmpty()) {
            throw KafkaStartupFailure.of(refusal(refused, kafka.bootstrapServers()), firstRefusal, kafka, timeout.toSeconds());
        }
    }

    /** What the operator reads when a raise was refused: each topic, the value it needs and the command that sets it. */
    static String refusal(List<Shortfall> refused, String bootstrapServers) {
        String topics = refused.stream().map(shortfall -> shortfall.need().topic() + " from " + describe(shortfall.currentMs())
                + " to " + describe(shortfall.need().retentionMs())).collect(Collectors.joining(", "));
        String commands = refused.stream().map(shortfall -> "kafka-configs.sh --bootstrap-server " + bootstrapServers
                + " --alter --entity-type topics --entity-name " + shortfall.need().topic() + " --add-config "
                + TopicConfig.RETENTION_MS_CONFIG + "=" + shortfall.need().retentionMs()).collect(Collectors.joining(" ; "));
        return "cannot raise " + TopicConfig.RETENTION_MS_CONFIG + " of changelog topic" + (refused.size() == 1 ? " " : "s ") + topics
                + " (its window store's retention, horizon + late margin, plus "
                + StreamsConfig.WINDOW_STORE_CHANGE_LOG_ADDITIONAL_RETENTION_MS_CONFIG + "): kept shorter, a restore would miss what "
                + "Kafka deleted and count retries twice. Run: " + commands + " ; then start the processor again. Why it could not";
    }

    private static String describe(Long retentionMs) {
        if (retentionMs == null) {
            return "unknown";
        }
        return retentionMs + " ms" + (retentionMs >= 0 ? " (" + Duration.ofMillis(retentionMs) + ")" : " (forever)");
    }

    private static ConfigResource resource(String topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic);
    }

    /** At least 0: a wait past the deadline only collects what has already arrived. */
    private static long remainingMillis(long deadline) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }
}
