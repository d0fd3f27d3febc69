package io.sluice.bench.run;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import io.sluice.config.KafkaSettings;
import io.sluice.kafka.KafkaClients;

/**
 * The processor's consumer lag: for every partition its group (the processor's application id) has
 * committed, the end offset minus the committed offset, summed. That is the raw transactions topic
 * and the repartition topic between parsing and aggregation, so a processor whose parsing keeps up
 * while its aggregation falls behind still shows a growing lag.
 */
final class ProcessorLag implements AutoCloseable {
    private final Admin admin;
    private final String groupId;

    ProcessorLag(KafkaSettings kafka, String groupId) {
        this.admin = Admin.create(KafkaClients.adminProperties(kafka, "sluice-bench-lag"));
        this.groupId = groupId;
    }

    /** Records not yet committed by the processor, over all the topics it reads; 0 before its first commit. */
    long records() throws InterruptedException, ExecutionException {
        return records(topic -> true);
    }

    /** The same, over the topics {@code topics} accepts (the repartition topics end in "-repartition"). */
    long records(Predicate<String> topics) throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
        long lag = 0;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : committed.entrySet()) {
            if (entry.getValue() != null && ends.containsKey(entry.getKey()) && topics.test(entry.getKey().topic())) {
                lag += Math.max(0, ends.get(entry.getKey()).offset() - entry.getValue().offset());
            }
        }
        return lag;
    }

    @Override
    public void close() {
        admin.close();
    }
}
