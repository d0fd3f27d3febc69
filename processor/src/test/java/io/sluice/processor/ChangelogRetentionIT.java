package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.events.EventTime;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * Kafka Streams sets a window store changelog's {@code retention.ms} only when it creates the topic:
 * a processor restarted with a longer horizon raises it to what its stores now need (their
 * retention + Streams' default additional day), so a later restore finds every id and count the
 * stores still keep; a retention an operator set longer is left as it is.
 */
@ExtendWith(RealEngines.class)
class ChangelogRetentionIT {
    private static final List<String> STORES = List.of("error-routes", "errors-1h", "errors-1m", "requests-1h", "requests-1m",
            "seen-errors", "seen-transactions", "traffic-1h", "traffic-1m", "transaction-routes");
    private static final Duration DAY = Duration.ofDays(1);
    private static final Duration DEFAULT_HORIZON = Duration.ofHours(24);
    private static final Duration LONGER_HORIZON = DEFAULT_HORIZON.plus(Duration.ofDays(2));
    private static final Duration MARGIN = Duration.ofHours(2); // SLUICE_PROCESSOR_LATE_MARGIN's default

    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aHorizonTwoDaysLongerRaisesEveryChangelogToWhatItsStoreNeeds(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("retentiongrows" + System.currentTimeMillis(), engines, stateDir).toMap();
        String app = values.get("SLUICE_PROCESSOR_APPLICATION_ID");
        try (Admin admin = admin(engines)) {
            runOnce(values); // Streams creates the changelogs, with the default horizon
            assertEquals(needed(DEFAULT_HORIZON), retentions(admin, app), "retention.ms Kafka Streams created the changelogs with");

            values.put(EventTime.HORIZON.name(), LONGER_HORIZON.toHours() + "h");
            runOnce(values);

            Await.until(Duration.ofSeconds(10), needed(LONGER_HORIZON), () -> retentions(admin, app));
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aRetentionAnOperatorSetLongerIsLeftAsItIs(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated("retentionkept" + System.currentTimeMillis(), engines, stateDir).toMap();
        String app = values.get("SLUICE_PROCESSOR_APPLICATION_ID");
        long thirtyDays = Duration.ofDays(30).toMillis();
        try (Admin admin = admin(engines)) {
            runOnce(values);
            ConfigResource seenErrors = topic(app + "-seen-errors-changelog");
            admin.incrementalAlterConfigs(Map.of(seenErrors, List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG,
                    Long.toString(thirtyDays)), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            Map<String, Long> operatorSet = needed(DEFAULT_HORIZON);
            operatorSet.put("seen-errors", thirtyDays);
            Await.until(Duration.ofSeconds(10), operatorSet, () -> retentions(admin, app));

            values.put(EventTime.HORIZON.name(), LONGER_HORIZON.toHours() + "h");
            runOnce(values);

            Map<String, Long> expected = needed(LONGER_HORIZON);
            expected.put("seen-errors", thirtyDays);
            Await.until(Duration.ofSeconds(10), expected, () -> retentions(admin, app));
        }
    }

    /** Starts a processor, waits until its stream threads run (changelogs created, state restored), and stops it. */
    private static void runOnce(Map<String, String> values) throws Exception {
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        try (ProcessorService processor = ProcessorService.start(config)) {
            assertTrue(processor.awaitRunning(Duration.ofSeconds(90)), "the processor did not reach RUNNING");
        }
    }

    /**
     * What each store's changelog needs, by store, written out here rather than taken from the
     * processor: counts keep a minute (an hour) + horizon + margin, seen ids horizon + margin, the routes
     * of a day a day + horizon + margin, and Kafka
     * Streams adds {@code windowstore.changelog.additional.retention.ms} (1 day by default).
     */
    private static Map<String, Long> needed(Duration horizon) {
        Map<String, Long> needed = new TreeMap<>();
        long counts = Duration.ofMinutes(1).plus(horizon).plus(MARGIN).plus(DAY).toMillis();
        long seen = horizon.plus(MARGIN).plus(DAY).toMillis();
        long hourly = Duration.ofHours(1).plus(horizon).plus(MARGIN).plus(DAY).toMillis();
        long routes = DAY.plus(horizon).plus(MARGIN).plus(DAY).toMillis();
        needed.put("error-routes", routes);
        needed.put("errors-1h", hourly);
        needed.put("requests-1h", hourly);
        needed.put("requests-1m", counts);
        needed.put("transaction-routes", routes);
        needed.put("errors-1m", counts);
        needed.put("seen-errors", seen);
        needed.put("seen-transactions", seen);
        needed.put("traffic-1h", hourly);
        needed.put("traffic-1m", counts);
        return needed;
    }

    private static Map<String, Long> retentions(Admin admin, String applicationId) {
        List<ConfigResource> topics = STORES.stream().map(store -> topic(applicationId + "-" + store + "-changelog")).toList();
        try {
            var configs = admin.describeConfigs(topics).all().get(30, TimeUnit.SECONDS);
            Map<String, Long> retentions = new TreeMap<>();
            for (int i = 0; i < STORES.size(); i++) {
                retentions.put(STORES.get(i), Long.parseLong(configs.get(topics.get(i)).get(TopicConfig.RETENTION_MS_CONFIG).value()));
            }
            return retentions;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the changelogs' retention.ms", e);
        }
    }

    private static ConfigResource topic(String name) {
        return new ConfigResource(ConfigResource.Type.TOPIC, name);
    }

    private static Admin admin(Engines engines) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, engines.kafkaBootstrapServers()));
    }
}
