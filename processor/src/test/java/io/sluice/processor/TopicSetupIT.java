package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/** Topics created before Sluice raised their record limit get it on the next start. */
@ExtendWith(RealEngines.class)
class TopicSetupIT {
    @TempDir
    Path stateDir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anExistingRawTopicWithTheBrokersDefaultRecordLimitIsRaisedToWhatSluiceNeeds(Engines engines) throws Exception {
        KafkaSettings kafka = KafkaSettings.from(TestSettings.isolated("topic-upgrade-" + System.currentTimeMillis(), engines, stateDir).build());
        String raw = kafka.topics().transactions();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, engines.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(raw, 1, (short) 1))).all().get(30, TimeUnit.SECONDS); // the broker's defaults
            assertEquals(true, maxMessageBytes(admin, raw) < TopicSetup.MAX_EVENT_RECORD_BYTES, "the broker's default is lower");

            TopicSetup.ensureTopics(kafka);

            // The brokers apply a config change shortly after the controller took it.
            Await.until(Duration.ofSeconds(10), TopicSetup.MAX_EVENT_RECORD_BYTES, () -> maxMessageBytes(admin, raw));
        }
    }

    /** The topic's record limit, once the broker has it: a topic just created may be unknown to it for a moment. */
    private static int maxMessageBytes(Admin admin, String topic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return Integer.parseInt(admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS)
                        .get(resource).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw new IllegalStateException(e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            } catch (InterruptedException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
