package io.sluice.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.utils.Utils;

/**
 * Picks an event's partition. Normally the project's own (its token hashed as Kafka's default
 * partitioner would), so a project's events stay together. While a project sends more than
 * {@code floodRatePerSecond} through this gateway (this second or the last), its events are
 * spread over all partitions by event id, so one tenant cannot make a partition hot. Retries of
 * the same event id go to the same partition as long as the project's state does not change in
 * between (the processor's deduplication relies on that).
 */
public final class PartitionChooser {
    private final long floodRatePerSecond;
    private final Map<String, RecentRate> rates = new ConcurrentHashMap<>();

    public PartitionChooser(long floodRatePerSecond) {
        this.floodRatePerSecond = floodRatePerSecond;
    }

    public int partition(String token, String eventId, int partitions, long nowMillis) {
        boolean flooding = rates.computeIfAbsent(token, t -> new RecentRate()).count(nowMillis / 1000) > floodRatePerSecond;
        String spreadBy = flooding ? eventId : token;
        return Utils.toPositive(Utils.murmur2(spreadBy.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** Events of one project in the current and the previous second (approximate under races, by design). */
    private static final class RecentRate {
        private long second;
        private long current;
        private long previous;

        synchronized long count(long nowSecond) {
            if (nowSecond != second) {
                previous = nowSecond == second + 1 ? current : 0;
                current = 0;
                second = nowSecond;
            }
            current++;
            return Math.max(current, previous);
        }
    }
}
