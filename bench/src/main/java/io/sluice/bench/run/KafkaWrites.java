package io.sluice.bench.run;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * What the broker wrote per event over an interval, every topic counted (raw, outputs, changelogs,
 * repartitions, consumer offsets, transaction state): records are the growth of the log end offsets,
 * so transaction markers, which take an offset each, count; bytes are the growth of the logs on
 * disk, batch headers and compression included. A log that compaction or retention shrank meanwhile
 * counts less than was written.
 *
 * @param recordsPerEventByTopic each topic's records per event, by name
 */
public record KafkaWrites(double recordsPerEvent, double bytesPerEvent, Map<String, Double> recordsPerEventByTopic) {
    /** Every topic's log end offsets and log sizes, each summed over its partitions. */
    record Logs(Map<String, Long> endOffsets, Map<String, Long> bytes) {
        /** Read from the broker(s) with {@code admin}. */
        static Logs read(Admin admin) throws Exception {
            var topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).forEach((name, description) ->
                    description.partitions().forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            Map<String, Long> ends = new TreeMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((partition, end) -> ends.merge(partition.topic(), end.offset(), Long::sum));
            Map<String, Long> bytes = new TreeMap<>();
            List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(node -> node.id()).toList();
            admin.describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values().forEach(dirs ->
                    dirs.values().forEach(dir -> dir.replicaInfos().forEach((partition, replica) ->
                            bytes.merge(partition.topic(), replica.size(), Long::sum))));
            return new Logs(ends, bytes);
        }
    }

    static KafkaWrites between(Logs before, Logs after, long events) {
        Map<String, Double> byTopic = new LinkedHashMap<>();
        long records = 0;
        for (Map.Entry<String, Long> topic : new TreeMap<>(after.endOffsets()).entrySet()) {
            long written = topic.getValue() - before.endOffsets().getOrDefault(topic.getKey(), 0L);
            records += written;
            byTopic.put(topic.getKey(), (double) written / events);
        }
        long bytes = 0;
        for (Map.Entry<String, Long> topic : after.bytes().entrySet()) {
            bytes += topic.getValue() - before.bytes().getOrDefault(topic.getKey(), 0L);
        }
        return new KafkaWrites((double) records / events, (double) bytes / events, byTopic);
    }
}
