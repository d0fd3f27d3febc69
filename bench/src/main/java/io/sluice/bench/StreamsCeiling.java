package io.sluice.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import io.sluice.kafka.KafkaClients;
import io.sluice.processor.ProcessorConfig;

/**
 * What Kafka Streams itself costs on this machine: an exactly-once application, with the
 * processor's threads and commit interval, that copies the raw topic to another topic and does
 * nothing else. The processor cannot be faster than this; the gap to it is Sluice's own work
 * (parse, deduplicate, aggregate, the sink).
 */
final class StreamsCeiling {
    private static final String APPLICATION_ID = "bench-streams-ceiling";
    private static final String OUTPUT = "bench.streams-ceiling";

    private StreamsCeiling() {
    }

    /** Records/s from 20% to 100% of {@code records} copied and committed (the start is JIT warm-up). */
    static double measure(ProcessorConfig processor, String rawTopic, long records, Path stateDir) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.adminProperties(processor.kafka(), null))) {
            int partitions = admin.describeTopics(List.of(rawTopic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(rawTopic).partitions().size();
            admin.createTopics(List.of(new NewTopic(OUTPUT, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream(rawTopic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                    .to(OUTPUT, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            Properties props = KafkaClients.streamsProperties(processor.kafka());
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
            props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, processor.streamThreads());
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, processor.commitInterval().toMillis());
            try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
                streams.start();
                long startedAt = 0;
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                while (System.nanoTime() < deadline) {
                    long copied = committed(admin);
                    if (startedAt == 0 && copied >= records / 5) {
                        startedAt = System.nanoTime();
                    }
                    if (copied >= records) {
                        return (records - records / 5) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                    }
                    Thread.sleep(100);
                }
                throw new IllegalStateException("the Kafka Streams ceiling did not copy " + records + " records in 10 minutes");
            } finally {
                admin.deleteTopics(List.of(OUTPUT));
            }
        }
    }

    /** Source records the application has committed as done: its group's committed offsets. */
    private static long committed(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(APPLICATION_ID)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
    }
}
