package io.sluice.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaSettings;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** What TopicSetup does to a real broker's topics: what it creates, and what it says of existing ones. */
@ExtendWith(RealEngines.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TopicSetupIT {
    @TempDir
    Path stateDir;

    @Test
    void createdTopicsCarryTheirMinInsyncReplicas(Engines engines) throws Exception {
        KafkaSettings kafka = KafkaSettings.from(TestSettings.isolated("topic_min_isr", engines, stateDir).build());
        assertEquals(List.of(), TopicSetup.ensureTopics(kafka));
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            ConfigEntry entry = topicConfig(admin, kafka.topics().transactions(), "min.insync.replicas");
            // Set on the topic, not inherited from the broker: 1 with one replica (2 from 2 replicas up).
            assertEquals(List.of("1", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG),
                    List.of(entry.value(), entry.source()));
        }
    }

    @Test
    void rawAndHistoryTopicsRollASegmentADaySoARecordOutlivesItsRetentionByAtMostADay(Engines engines) throws Exception {
        KafkaSettings kafka = KafkaSettings.from(TestSettings.isolated("topic_segment", engines, stateDir).build());
        assertEquals(List.of(), TopicSetup.ensureTopics(kafka));
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            for (String topic : List.of(kafka.topics().transactions(), kafka.topics().errors(), kafka.topics().history(),
                    kafka.topics().errorHistory(), kafka.topics().deadLetters())) {
                assertEquals("86400000", topicConfig(admin, topic, "segment.ms").value(), topic);
            }
        }
    }

    @Test
    void existingTopicsWeakerThanSluiceNeedsAreNamed(Engines engines) throws Exception {
        KafkaSettings kafka = KafkaSettings.from(TestSettings.isolated("topic_weaker", engines, stateDir).build());
        try (Admin admin = Admin.create(KafkaClients.adminProperties(kafka, null))) {
            admin.createTopics(List.of(
                    new NewTopic(kafka.topics().projects(), 1, (short) 1).configs(Map.of("cleanup.policy", "delete")),
                    new NewTopic(kafka.topics().errors(), 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            // Created is not yet listed: a broker's metadata may lag its controller on a busy machine.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!admin.listTopics().names().get(30, TimeUnit.SECONDS)
                    .containsAll(List.of(kafka.topics().projects(), kafka.topics().errors())) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
        }
        List<String> differences = TopicSetup.ensureTopics(kafka).stream()
                .map(d -> d.topic() + " " + d.setting() + " " + d.expected() + " " + d.actual() + " " + d.serious()).toList();
        assertEquals(List.of("topic_weaker.errors partitions 3 2 false", "topic_weaker.projects cleanup.policy compact delete true"),
                differences.stream().sorted().toList());
    }

    /** The topic's config entry; a topic just created may take a moment to be known to the broker that answers. */
    private static ConfigEntry topicConfig(Admin admin, String topic, String name) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource).get(name);
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }
}
