package io.sluice.gateway.publish;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.utils.Utils;

/**
 * Picks an event's partition from its project token and event id only, hashed as Kafka's
 * default partitioner would: every copy of an event (a retry, through any gateway, at any load)
 * lands in the same partition, where the processor's per-partition deduplication sees it. This
 * also spreads every project over all partitions, so no tenant can make one partition hot.
 * Per-project order across events is not kept (and not promised).
 */
public final class PartitionChooser {
    private PartitionChooser() {
    }

    public static int partition(String token, String eventId, int partitions) {
        byte[] key = (token + '/' + eventId).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }
}
