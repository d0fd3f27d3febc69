package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class PartitionChooserTest {
    private static final String KEY = "a secret shared by every gateway";
    private static final String TOKEN = "a1b2c3";

    /** What a client could do with the former rule, murmur2 of token/event id, which it can compute. */
    private static List<String> idsAimedAtPartitionZero(int count, int partitions) {
        List<String> aimed = new ArrayList<>();
        for (long i = 0; aimed.size() < count; i++) {
            String id = String.format("%032x", i);
            if (Utils.toPositive(Utils.murmur2((TOKEN + "/" + id).getBytes(StandardCharsets.UTF_8))) % partitions == 0) {
                aimed.add(id);
            }
        }
        return aimed;
    }

    @Test
    void idsAimedAtOnePartitionByMurmur2SpreadOverEveryPartition() {
        int[] perPartition = new int[12];
        for (String id : idsAimedAtPartitionZero(1_200, 12)) {
            perPartition[new PartitionChooser(KEY).partition(TOKEN, id, 12)]++;
        }
        // 100 expected in each; without the key every one of them would be in partition 0.
        for (int partition = 0; partition < 12; partition++) {
            assertEquals(100, perPartition[partition], 35, "events in partition " + partition + ": " + java.util.Arrays.toString(perPartition));
        }
    }

    @Test
    void twoGatewaysWithTheSameKeyPickTheSamePartitionForEveryEvent() {
        PartitionChooser first = new PartitionChooser(KEY);
        PartitionChooser second = new PartitionChooser(KEY);
        for (int i = 0; i < 5_000; i++) {
            String id = String.format("%032x", i * 7919L);
            assertEquals(first.partition(TOKEN, id, 12), second.partition(TOKEN, id, 12), id);
        }
    }

    @Test
    void thePartitionDependsOnTheProjectToo() {
        PartitionChooser chooser = new PartitionChooser(KEY);
        int same = 0;
        for (int i = 0; i < 1_200; i++) {
            String id = String.format("%032x", i);
            same += chooser.partition("project-a", id, 12) == chooser.partition("project-b", id, 12) ? 1 : 0;
        }
        assertEquals(100, same, 30); // a twelfth, by chance
    }

    /**
     * Another key sends about 11 of 12 ids to another partition: a retry published under the new
     * key meets its first copy only by chance, and the processor counts it again (README, "The partition key").
     */
    @Test
    void anotherKeyMovesElevenTwelfthsOfTheIds() {
        PartitionChooser before = new PartitionChooser(KEY);
        PartitionChooser after = new PartitionChooser("another secret, after a rotation");
        int moved = 0;
        for (int i = 0; i < 1_200; i++) {
            String id = String.format("%032x", i);
            moved += before.partition(TOKEN, id, 12) != after.partition(TOKEN, id, 12) ? 1 : 0;
        }
        assertEquals(1_100, moved, 30);
    }

    @Test
    void oneProjectsEventsSpreadOverAllPartitions() {
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            used.add(PartitionChooser.development().partition("one-project", String.format("%032x", i), 4));
        }
        assertEquals(Set.of(0, 1, 2, 3), used);
    }

    @Test
    void aKeyShorterThanSixteenBytesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PartitionChooser("fifteen bytes!!"));
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> new PartitionChooser("sixteen bytes!!!"));
    }
}
