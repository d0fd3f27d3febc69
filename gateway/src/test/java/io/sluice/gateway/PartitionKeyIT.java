package io.sluice.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sluice.events.EventHeaders;
import io.sluice.gateway.publish.PartitionChooser;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * The partition of an event comes from a hash keyed by SLUICE_PARTITION_KEY: ids a client aims at
 * one partition (as it could with murmur2, which it can compute) spread over all of them; and
 * after the key changes, a retry of an event published before lands in another partition (whose
 * processor task has not seen it: it is counted again, see the README, "The partition key").
 */
@ExtendWith(RealEngines.class)
class PartitionKeyIT {
    private static final String KEY = "the fleet's secret partition key, 1";
    private static final String ROTATED = "the fleet's secret partition key, 2";
    private static final int PARTITIONS = 4; // TestGateway's SLUICE_TOPIC_PARTITIONS

    @Test
    @Timeout(120)
    void idsAimedAtOnePartitionSpreadOverEveryPartition(Engines engines) throws Exception {
        try (TestGateway gateway = TestGateway.start(engines, Map.of("SLUICE_PARTITION_KEY", KEY))) {
            ProjectAdmin.NewProject project = gateway.newProject("aiming");
            List<String> aimed = new ArrayList<>();
            for (long i = 0; aimed.size() < 40; i++) {
                String id = String.format("%032x", 0xa1a1_0000L + i);
                if (Utils.toPositive(Utils.murmur2((project.token() + "/" + id).getBytes(StandardCharsets.UTF_8))) % PARTITIONS == 0) {
                    aimed.add(id);
                }
            }
            for (String id : aimed) {
                assertEquals(200, gateway.post(project, "transaction",
                        "{\"event_id\": \"" + id + "\", \"transaction\": \"GET /\"}").statusCode());
            }
            List<ConsumerRecord<byte[], byte[]>> records = KafkaRecords.find(engines, "sluice.transactions", aimed.size(),
                    Duration.ofSeconds(30), KafkaRecords.withHeader(EventHeaders.PROJECT, project.token()));
            Map<Integer, Long> perPartition = records.stream()
                    .collect(Collectors.groupingBy(ConsumerRecord::partition, TreeMap::new, Collectors.counting()));
            Map<Integer, Long> expected = aimed.stream().collect(Collectors.groupingBy(
                    id -> new PartitionChooser(KEY).partition(project.token(), id, PARTITIONS), TreeMap::new, Collectors.counting()));
            System.out.println("partition key: 40 ids aimed at partition 0 by murmur2 landed in partitions " + perPartition);
            assertEquals(expected, perPartition);
            assertEquals(Set.of(0, 1, 2, 3), perPartition.keySet());
        }
    }

    @Test
    @Timeout(120)
    void afterTheKeyChangesARetryLandsInAnotherPartitionThanItsFirstCopy(Engines engines) throws Exception {
        try (TestGateway before = TestGateway.start(engines, Map.of("SLUICE_PARTITION_KEY", KEY));
             TestGateway after = TestGateway.start(engines, Map.of("SLUICE_PARTITION_KEY", ROTATED))) {
            ProjectAdmin.NewProject project = before.newProject("rotated");
            after.awaitKnown(project);
            String id = null;
            for (long i = 0; id == null; i++) { // most ids move (3 of 4 here): take the first that does
                String candidate = String.format("%032x", 0xb2b2_0000L + i);
                if (new PartitionChooser(KEY).partition(project.token(), candidate, PARTITIONS)
                        != new PartitionChooser(ROTATED).partition(project.token(), candidate, PARTITIONS)) {
                    id = candidate;
                }
            }
            String event = "{\"event_id\": \"" + id + "\", \"transaction\": \"GET /\"}";
            assertEquals(200, before.post(project, "transaction", event).statusCode());
            assertEquals(200, after.post(project, "transaction", event).statusCode()); // the client's retry

            List<ConsumerRecord<byte[], byte[]>> copies = KafkaRecords.find(engines, "sluice.transactions", 2,
                    Duration.ofSeconds(30), KafkaRecords.withHeader(EventHeaders.EVENT_ID, id));
            assertEquals(2, copies.size());
            // One copy in each key's partition (the records come back by partition, not in the order sent).
            assertEquals(Set.of(new PartitionChooser(KEY).partition(project.token(), id, PARTITIONS),
                            new PartitionChooser(ROTATED).partition(project.token(), id, PARTITIONS)),
                    Set.of(copies.get(0).partition(), copies.get(1).partition()));
        }
    }
}
