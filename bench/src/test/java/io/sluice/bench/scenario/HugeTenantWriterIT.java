package io.sluice.bench.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.kafka.KafkaClients;
import io.sluice.processor.ProcessorConfig;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * The huge-tenant stage writes its raw topics as soon as it has created them, when the broker may
 * refuse a partition's first batch (NOT_LEADER_OR_FOLLOWER) and take the next: an idempotent writer
 * then retries that first batch (sequence 0) against the broker's later end until its 300 s delivery
 * timeout, and the stage fails. Sixteen partitions a topic widen the moment the broker takes to lead
 * them all: an idempotent writer was stuck within these rounds.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class HugeTenantWriterIT {
    private static final int ROUNDS = 8;
    private static final int PARTITIONS = 16;
    private static final long RECORDS = 10_000;

    @Test
    void everyRecordReachesATopicWrittenAsSoonAsItIsCreated(Engines engines, @TempDir Path stateDir) throws Exception {
        ProcessorConfig config = ProcessorConfig.from(TestSettings.isolated("tenantswriter", engines, stateDir).build());
        try (Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka(), null))) {
            for (int round = 0; round < ROUNDS; round++) {
                String topic = "tenants-writer-it." + round;
                admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
                HugeTenant.write(config, topic, PARTITIONS, RECORDS, true);
                assertEquals(RECORDS, records(admin, topic), topic);
            }
        }
    }

    private static long records(Admin admin, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> ends = IntStream.range(0, PARTITIONS).boxed()
                .collect(Collectors.toMap(partition -> new TopicPartition(topic, partition), partition -> OffsetSpec.latest()));
        return admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS).values().stream().mapToLong(end -> end.offset()).sum();
    }
}
