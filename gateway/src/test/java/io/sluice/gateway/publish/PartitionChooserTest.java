package io.sluice.gateway.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class PartitionChooserTest {

    @Test
    void thePartitionIsKafkasMurmur2OfTokenSlashEventIdAndNothingElse() {
        String token = "a1b2c3";
        String eventId = "0123456789abcdef0123456789abcdef";
        int expected = Utils.toPositive(Utils.murmur2((token + "/" + eventId).getBytes(StandardCharsets.UTF_8))) % 12;
        // Asked again and again, as a flooding project would (the removed flood switch changed it).
        for (int i = 0; i < 5_000; i++) {
            assertEquals(expected, PartitionChooser.partition(token, eventId, 12));
        }
    }

    @Test
    void oneProjectsEventsSpreadOverAllPartitions() {
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            used.add(PartitionChooser.partition("one-project", String.format("%032x", i), 4));
        }
        assertEquals(Set.of(0, 1, 2, 3), used);
    }
}
