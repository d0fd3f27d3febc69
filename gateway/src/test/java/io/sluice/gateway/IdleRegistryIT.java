package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.kafka.TopicSetup;
import io.sluice.projects.ProjectAdmin;
import io.sluice.projects.ProjectRegistry;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.ThreadWakeups;

/**
 * The gateway's registry follower, loaded and with nothing new to read, waits for records instead of
 * waking every 200 ms; a project written then is in force as soon as its record is fetched.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IdleRegistryIT {
    private static final Duration IDLE = Duration.ofSeconds(10);

    @Test
    void aLoadedRegistryWithNothingToReadWakesOnlyForItsFetches(Engines engines) throws Exception {
        String topic = topic(engines, "idle-registry-it.wakes");
        try (ProjectRegistry registry = new ProjectRegistry(engines.kafkaBootstrapServers(), topic)) {
            assertTrue(registry.awaitLoaded(Duration.ofSeconds(60)), "the registry did not load");
            Thread.sleep(1_000);
            long before = ThreadWakeups.of("sluice-registry");
            Thread.sleep(IDLE.toMillis());
            long wakeups = ThreadWakeups.of("sluice-registry") - before;
            // Its fetches are answered every 500 ms (fetch.max.wait.ms): 20 in 10 s; before, it woke every 200 ms
            // as well: 71 in 10 s.
            assertTrue(wakeups <= 35, wakeups + " wake-ups in " + IDLE.toSeconds() + " s");
        }
    }

    @Test
    void aProjectWrittenAfterAnIdleSpellIsInForceAsSoonAsItIsFetched(Engines engines) throws Exception {
        String topic = topic(engines, "idle-registry-it.change");
        try (ProjectRegistry registry = new ProjectRegistry(engines.kafkaBootstrapServers(), topic);
             ProjectAdmin admin = new ProjectAdmin(engines.kafkaBootstrapServers(), topic)) {
            assertTrue(registry.awaitLoaded(Duration.ofSeconds(60)), "the registry did not load");
            Thread.sleep(IDLE.toMillis());
            ProjectAdmin.NewProject created = admin.create("shop");
            // Generous for a shared machine, yet below the follower's longest wait for nothing (10 s).
            Await.until("the new project in force", Duration.ofSeconds(5), true, () -> registry.find(created.token()) != null);
        }
    }

    private static String topic(Engines engines, String topic) {
        TopicSetup.ensureTopics(KafkaSettings.from(new Settings(Map.of(KafkaSettings.BOOTSTRAP_SERVERS.name(),
                engines.kafkaBootstrapServers(), Topics.PROJECTS.name(), topic))));
        return topic;
    }
}
