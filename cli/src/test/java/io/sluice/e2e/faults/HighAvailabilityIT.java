package io.sluice.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.engines.KafkaCluster;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.GatewayConfig;
import io.sluice.gateway.publish.PartitionChooser;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorMain;
import io.sluice.processor.ProcessorService;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * More than one of everything, and one of each failing under load: three Kafka brokers (topics
 * with three copies, two in sync), two gateways and two processor instances sharing the work.
 * One broker is SIGKILLed and restarted, one processor SIGKILLed for good, one gateway stopped;
 * every acknowledged event is still counted exactly once.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class HighAvailabilityIT {
    private static final String NAME = "ha";
    private static final int CLIENTS = 4;
    /** Per client: a bound on the load, far above what the test needs. */
    private static final int MAX_SENDS_PER_CLIENT = 5_000;
    /** Acknowledgements that must come after each fault: service went on. */
    private static final int PROGRESS = 100;

    private static volatile long BEGAN = System.nanoTime();

    @TempDir
    Path workDir;

    @Test
    void brokerProcessorAndGatewayEachFailUnderLoadAndEveryAcknowledgedEventIsCountedOnce(Engines engines) throws Exception {
        BEGAN = System.nanoTime();
        try (KafkaCluster kafka = KafkaCluster.start(workDir.resolve("kafka"), 3)) {
            phase("3 Kafka nodes up");
            Map<String, String> values = settings(engines, kafka.bootstrapServers());
            String transactions = values.get("SLUICE_TOPIC_TRANSACTIONS");
            String appId = values.get("SLUICE_PROCESSOR_APPLICATION_ID");
            Gateway first = Gateway.start(GatewayConfig.from(new Settings(values)));
            Gateway second = Gateway.start(GatewayConfig.from(new Settings(values)));
            ProcessorService survivor = ProcessorService.start(ProcessorConfig.from(new Settings(instance(values, "ha-1"))));
            Process victim = startProcessor(instance(values, "ha-2"), workDir.resolve("ha-2.log"));
            Delivery delivery = new Delivery();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicBoolean secondStopped = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                Set<TopicPartition> partitions = partitions(transactions, 3);
                // Both instances share the work: each has some of the partitions, together all of them.
                Await.until("the two processors to share the " + transactions + " partitions", Duration.ofSeconds(90), true,
                        () -> shared(admin, appId, partitions, Set.of("ha-1", "ha-2")));
                phase("2 gateways up, 2 processors sharing the partitions");
                ProjectAdmin.NewProject project = project(kafka.bootstrapServers(), values.get("SLUICE_TOPIC_PROJECTS"), first, second);

                int[] gateways = {first.port(), second.port()};
                List<Future<?>> running = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    running.add(clients.submit(() -> {
                        // Half the clients start on each gateway; a client whose gateway is gone moves to the other.
                        int target = client % 2;
                        for (int i = 0; i < MAX_SENDS_PER_CLIENT && !stop.get(); i++) {
                            int status = delivery.send(gateways[target], project.token(), project.key(),
                                    UUID.randomUUID().toString().replace("-", ""));
                            if (target == 1 && (status == Delivery.NOT_SENT || status == 503 && secondStopped.get())) {
                                target = 0;
                            }
                        }
                    }));
                }
                awaitProgress(delivery, "before any fault");

                long brokerKilled = System.nanoTime();
                kafka.kill(2); // SIGKILL: no controlled shutdown, leaders on it move after its session expires
                awaitProgress(delivery, "with broker 2 down (2 of 3 in sync is enough)");
                long brokerRestarting = System.nanoTime();
                kafka.restart(2);
                phase("broker 2 restarted");
                assertTrue(kafka.awaitInSync(List.of(transactions, values.get("SLUICE_TOPIC_ERRORS")), Duration.ofSeconds(60)),
                        "broker 2 back in sync: " + kafka);
                awaitProgress(delivery, "after broker 2 came back");

                victim.destroyForcibly();
                assertTrue(victim.waitFor(30, TimeUnit.SECONDS), "the killed processor is gone");
                assertEquals(137, victim.exitValue(), "killed by SIGKILL (128 + 9), not a clean exit");
                // The survivor takes over every partition once the dead member's session times out.
                Await.until("ha-1 alone to hold every " + transactions + " partition", Duration.ofSeconds(60), true,
                        () -> shared(admin, appId, partitions, Set.of("ha-1")));
                Await.until("ha-1 alone to sink every partition", Duration.ofSeconds(60), true,
                        () -> soleSinkMember(admin, appId + "-sink", "ha-1-sink"));
                phase("processor ha-2 killed, ha-1 holds every partition");
                long afterProcessorKill = System.nanoTime();
                awaitProgress(delivery, "with one processor");

                secondStopped.set(true);
                second.close(); // what its SIGTERM hook does; its clients move to the first gateway
                awaitProgress(delivery, "with one gateway");
                stop.set(true);
                for (Future<?> client : running) {
                    client.get(1, TimeUnit.MINUTES);
                }
                phase("clients stopped");
                Delivery.Report report = DeliveryCheck.report("3 brokers (one SIGKILLed, restarted), 2 processors (one SIGKILLed),"
                        + " 2 gateways (one stopped)", engines, values.get("SLUICE_CLICKHOUSE_DATABASE"), project.token(), delivery);
                assertEquals(0, report.lost(), report.toString());
                assertEquals(0, report.duplicated(), report.toString());
                // Events acknowledged after the kill, by partition: every partition, the killed instance's too,
                // carried some, and (lost 0) each of them was counted.
                Map<Integer, Long> afterKillByPartition = new TreeMap<>();
                delivery.acknowledgedAt.forEach((id, at) -> {
                    if (at > afterProcessorKill) {
                        afterKillByPartition.merge(PartitionChooser.development().partition(project.token(), id, 3), 1L, Long::sum);
                    }
                });
                assertEquals(Set.of(0, 1, 2), afterKillByPartition.keySet(), "partitions with events after the kill: " + afterKillByPartition);
                long countedAfterKill = afterKillByPartition.values().stream().mapToLong(Long::longValue).sum();
                assertEquals(Set.of(), delivery.unanswered, "every request that was sent got an answer: " + report);
                System.out.println("fault: high availability | acknowledged after the processor kill, all counted once: " + countedAfterKill
                        + " (by partition " + afterKillByPartition + ")"
                        + " | longest pause between acknowledgements while broker 2 was down: "
                        + longestPause(delivery, brokerKilled, brokerRestarting).toMillis() + " ms");
            } finally {
                stop.set(true);
                clients.shutdownNow();
                victim.destroyForcibly();
                first.close();
                if (!secondStopped.get()) {
                    second.close();
                }
                survivor.close();
            }
        }
    }

    /** The longest time between two answers (2xx or refusal) in this window: how long clients waited at worst. */
    private static Duration longestPause(Delivery delivery, long from, long to) {
        List<Long> answers = new ArrayList<>(delivery.acknowledgedAt.values());
        delivery.refusals.forEach(refusal -> answers.add(refusal.answeredNanos()));
        answers.add(from);
        answers.add(to);
        List<Long> window = answers.stream().filter(at -> at >= from && at <= to).sorted().toList();
        long longest = 0;
        for (int i = 1; i < window.size(); i++) {
            longest = Math.max(longest, window.get(i) - window.get(i - 1));
        }
        return Duration.ofNanos(longest);
    }

    private static void awaitProgress(Delivery delivery, String phase) {
        int target = delivery.acknowledged.size() + PROGRESS;
        Await.until(PROGRESS + " more acknowledged " + phase,
                Duration.ofSeconds(60), true, () -> delivery.acknowledged.size() >= target);
        phase(PROGRESS + " more acknowledged " + phase);
    }

    /** A line per step with the time since the test began: where a slow CI run spends it. */
    private static void phase(String step) {
        System.out.printf("high availability: %5.1f s %s%n", (System.nanoTime() - BEGAN) / 1e9, step);
    }

    /** True when exactly these instances are in the Streams group and between them hold all these partitions, each some. */
    private static boolean shared(Admin admin, String group, Set<TopicPartition> partitions, Set<String> instances) {
        Collection<MemberDescription> members = members(admin, group);
        Set<String> present = new TreeSet<>();
        Set<TopicPartition> held = new TreeSet<>(java.util.Comparator.comparing(TopicPartition::toString));
        for (MemberDescription member : members) {
            // Streams names each thread's member <instance id>-<thread number>.
            String instance = member.groupInstanceId().orElse("").replaceFirst("-\\d+$", "");
            present.add(instance);
            Set<TopicPartition> mine = new TreeSet<>(java.util.Comparator.comparing(TopicPartition::toString));
            mine.addAll(member.assignment().topicPartitions());
            mine.retainAll(partitions);
            if (mine.isEmpty()) {
                return false;
            }
            held.addAll(mine);
        }
        return present.equals(instances) && held.size() == partitions.size();
    }

    private static boolean soleSinkMember(Admin admin, String group, String instance) {
        Collection<MemberDescription> members = members(admin, group);
        return members.size() == 1 && members.iterator().next().groupInstanceId().orElse("").equals(instance);
    }

    private static Collection<MemberDescription> members(Admin admin, String group) {
        try {
            Map<String, ConsumerGroupDescription> groups = admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS);
            return groups.get(group).members();
        } catch (Exception notYet) {
            return List.of();
        }
    }

    private static Set<TopicPartition> partitions(String topic, int count) {
        Set<TopicPartition> partitions = new TreeSet<>(java.util.Comparator.comparing(TopicPartition::toString));
        for (int p = 0; p < count; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        return partitions;
    }

    /** A project both gateways know (each answers 400 to an empty array instead of 401). */
    private static ProjectAdmin.NewProject project(String bootstrap, String topic, Gateway... gateways) {
        try (ProjectAdmin admin = new ProjectAdmin(bootstrap, topic)) {
            ProjectAdmin.NewProject project = admin.create("ha");
            for (Gateway gateway : gateways) {
                Await.until("the gateway on " + gateway.port() + " to know the new project", Duration.ofSeconds(30), 400,
                        () -> Delivery.status(gateway.port(), project.token(), project.key(), "[]"));
            }
            return project;
        }
    }

    private Map<String, String> settings(Engines engines, String bootstrap) {
        return TestSettings.isolated(NAME + "_" + UUID.randomUUID().toString().substring(0, 8), engines, workDir.resolve("unused-state"))
                .with("SLUICE_KAFKA_BOOTSTRAP_SERVERS", bootstrap)
                .with("SLUICE_TOPIC_REPLICATION_FACTOR", "3")
                .with("SLUICE_TOPIC_MIN_INSYNC_REPLICAS", "2")
                .with("SLUICE_TOPIC_PARTITIONS", "3")
                // Each event is its own environment (DeliveryCheck counts it in its own traffic row): beyond the
                // processor's daily limit of environments they would be counted as <other>.
                .with("SLUICE_PROCESSOR_ENVIRONMENTS_PER_DAY", "1000000")
                // A killed member's partitions move after 6 s (the brokers' minimum), not the default 45.
                .with("SLUICE_KAFKA_PROPERTY_SESSION_TIMEOUT_MS", "6000")
                .with("SLUICE_KAFKA_PROPERTY_HEARTBEAT_INTERVAL_MS", "1000")
                .toMap();
    }

    /** One processor instance's settings: same application id, its own instance id and state directory. */
    private Map<String, String> instance(Map<String, String> values, String instanceId) {
        Map<String, String> own = new TreeMap<>(values);
        own.put("SLUICE_PROCESSOR_INSTANCE_ID", instanceId);
        own.put("SLUICE_PROCESSOR_STATE_DIR", workDir.resolve("state-" + instanceId).toString());
        own.put("SLUICE_PROCESSOR_ADMIN_PORT", "0");
        return own;
    }

    private static Process startProcessor(Map<String, String> values, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                ProcessorMain.class.getName());
        builder.environment().putAll(values);
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return builder.start();
    }
}
