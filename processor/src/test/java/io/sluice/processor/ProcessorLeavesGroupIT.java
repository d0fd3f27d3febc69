package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * "On shutdown the processor leaves its group (partitions move at once)": two instances share the
 * partitions; one is closed; the other holds every partition of both groups (Streams' and the
 * sink's) and writes new events well before the 45 s session timeout a member that stays would
 * keep them for. Session timeout left at its default, so the bound means something.
 */
@ExtendWith(RealEngines.class)
class ProcessorLeavesGroupIT {
    /** Clearly below the 45 s default session timeout; a rebalance and a task restore take a few seconds. */
    private static final Duration TAKEOVER_BOUND = Duration.ofSeconds(20);

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aClosedInstancesPartitionsMoveToTheOtherAtOnce(Engines engines) throws Exception {
        takeOver(engines, "leave_dynamic", false);
    }

    /** The README advises SLUICE_PROCESSOR_INSTANCE_ID; a graceful stop must still hand the partitions over at once. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aClosedStaticInstancesPartitionsMoveToTheOtherAtOnce(Engines engines) throws Exception {
        takeOver(engines, "leave_static", true);
    }

    private void takeOver(Engines engines, String name, boolean staticMembers) throws Exception {
        Map<String, String> first = TestSettings.isolated(name, engines, workDir.resolve("a")).toMap();
        Map<String, String> second = TestSettings.isolated(name, engines, workDir.resolve("b")).toMap();
        if (staticMembers) {
            first.put("SLUICE_PROCESSOR_INSTANCE_ID", "a");
            second.put("SLUICE_PROCESSOR_INSTANCE_ID", "b");
        }
        ProcessorConfig config = ProcessorConfig.from(new Settings(first));
        TopicSetup.ensureTopics(config.kafka());
        String streamsGroup = config.applicationId();
        String sinkGroup = config.applicationId() + "-sink";
        String topic = config.kafka().topics().transactions();
        String table = "sluice_" + name + ".transactions";
        Instant minute = Instant.now().minusSeconds(120);

        ProcessorService leaving = ProcessorService.start(config);
        boolean left = false;
        ProcessorService staying = ProcessorService.start(ProcessorConfig.from(new Settings(second)));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", engines.kafkaBootstrapServers(),
                "default.api.timeout.ms", "10000", "request.timeout.ms", "5000"));
             RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            // Both instances hold partitions of both groups before one leaves.
            Await.until("two members with partitions in each group", Duration.ofSeconds(90), "2 2 / 2 2",
                    () -> membersWithPartitions(admin, streamsGroup) + " / " + membersWithPartitions(admin, sinkGroup));
            for (int i = 0; i < 30; i++) {
                raw.transaction(topic, "p" + i, "before" + i, minute, 200);
            }
            Await.until(Duration.ofSeconds(60), "30", () -> count(engines, table));

            long closing = System.nanoTime();
            leaving.close();
            left = true;
            Duration closeTook = since(closing);
            long closed = System.nanoTime();
            // When each group first had the staying instance alone, holding the partitions.
            long[] alone = {-1, -1};
            Await.until("the staying instance alone in both groups, holding every raw partition",
                    Duration.ofSeconds(60), "1 1 [0, 1, 2] / 1 1", () -> {
                        String streamsGroupNow = membersWithPartitions(admin, streamsGroup) + " " + partitionsOf(admin, streamsGroup, topic);
                        String sinkGroupNow = membersWithPartitions(admin, sinkGroup);
                        if (alone[0] < 0 && streamsGroupNow.equals("1 1 [0, 1, 2]")) {
                            alone[0] = since(closed).toMillis();
                        }
                        if (alone[1] < 0 && sinkGroupNow.equals("1 1")) {
                            alone[1] = since(closed).toMillis();
                        }
                        return streamsGroupNow + " / " + sinkGroupNow;
                    });
            // 30 projects: the raw key is the project, so every raw partition gets events.
            for (int i = 0; i < 30; i++) {
                raw.transaction(topic, "p" + i, "after" + i, minute, 200);
            }
            Await.until("every event written by the staying instance", Duration.ofSeconds(60), "60", () -> count(engines, table));
            Duration written = since(closed);
            System.out.printf("%s: close took %d ms; after it, the Streams group had one member in %d ms, the sink's in %d ms; "
                    + "new events in ClickHouse in %d ms%n", name, closeTook.toMillis(), alone[0], alone[1], written.toMillis());
            assertTrue(alone[0] < TAKEOVER_BOUND.toMillis(),
                    "Streams' partitions moved " + alone[0] + " ms after the close, not at once (session timeout 45 s)");
            assertTrue(alone[1] < TAKEOVER_BOUND.toMillis(),
                    "the sink's partitions moved " + alone[1] + " ms after the close, not at once (session timeout 45 s)");
            assertTrue(written.compareTo(TAKEOVER_BOUND) < 0,
                    "new events written " + written.toMillis() + " ms after the close, not at once (session timeout 45 s)");
            assertEquals("60", count(engines, "(SELECT DISTINCT event_id FROM " + table + " FINAL)"), "each event once");
        } finally {
            if (!left) {
                leaving.close();
            }
            staying.close();
        }
    }

    /** For each member of the group, whether it holds partitions: e.g. "2 2" is two members, both holding some. */
    private static String membersWithPartitions(Admin admin, String group) {
        ConsumerGroupDescription description = describe(admin, group);
        if (description == null) {
            return "?";
        }
        long members = description.members().size();
        long holding = description.members().stream().filter(m -> !m.assignment().topicPartitions().isEmpty()).count();
        return members + " " + holding;
    }

    private static Set<Integer> partitionsOf(Admin admin, String group, String topic) {
        Set<Integer> partitions = new TreeSet<>();
        ConsumerGroupDescription description = describe(admin, group);
        if (description != null) {
            for (MemberDescription member : description.members()) {
                member.assignment().topicPartitions().stream().filter(p -> p.topic().equals(topic))
                        .forEach(p -> partitions.add(p.partition()));
            }
        }
        return partitions;
    }

    private static ConsumerGroupDescription describe(Admin admin, String group) {
        try {
            return admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    private static String count(Engines engines, String table) {
        return ClickHouseQuery.run(engines, "SELECT count() FROM " + table + (table.startsWith("(") ? "" : " FINAL")).strip();
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }
}
