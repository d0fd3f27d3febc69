package io.sluice.bench.ceiling;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import io.sluice.bench.process.CpuClock;
import io.sluice.bench.process.CpuWindow;
import io.sluice.config.Aggregate;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Topics;
import io.sluice.kafka.KafkaClients;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.PreAggregation;

/**
 * What Kafka Streams itself costs on this machine, with the processor's own Streams settings
 * (exactly once, its threads, commit interval and RocksDB budget). {@link #copy}: an application that copies the raw topic to
 * another topic and does nothing else; the processor cannot be faster. {@link #processorShape}:
 * the processor's Kafka work without parsing or JSON ({@link ProcessorShapeTopology}); the gap
 * from the copy to it is what the shape costs, the gap from it to the processor is Sluice's own
 * work per record. {@link #processorAlone}: the processor's own topology, without its sink.
 */
public final class StreamsCeiling {
    private StreamsCeiling() {
    }

    /**
     * A ceiling's rate, and the CPU per record of its own threads (stream threads and their producers)
     * over the same interval: it runs in the bench's JVM, beside the broker.
     */
    public record Rate(double recordsPerSecond, double cpuMicrosPerRecord) {
    }

    /** Records/s of the copy, from 20% to 100% of {@code records} committed (the start is JIT warm-up). */
    public static Rate copy(ProcessorConfig processor, String rawTopic, long records, Path stateDir) throws Exception {
        String output = "bench.streams-ceiling";
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(rawTopic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        return measure(processor, "bench-streams-ceiling", builder.build(), rawTopic, List.of(output), false, records, stateDir);
    }

    /**
     * Records/s of the processor's shape over the raw records below {@code endOffsets} (by
     * partition: what the processor worked off), from 20% committed to all of them counted. Later
     * records (the runs after the backlog) are left out unprocessed.
     */
    public static double processorShape(ProcessorConfig processor, String rawTopic, Map<Integer, Long> endOffsets, Path stateDir)
            throws Exception {
        long records = endOffsets.values().stream().mapToLong(Long::longValue).sum();
        String history = "bench.shape-history";
        String counts = "bench.shape-counts";
        Topology shape = ProcessorShapeTopology.build(rawTopic, history, counts,
                processor.eventTimeHorizon().plus(processor.lateMargin()), HistoryRows.of(1).json().get(0).length, endOffsets);
        return measure(processor, "bench-streams-shape", shape, rawTopic, List.of(history, counts), true, records, stateDir)
                .recordsPerSecond();
    }

    /**
     * Records/s of the processor's own topology, every part on, in this JVM and without its sink,
     * over a copy of exactly the raw records below {@code endOffsets} (the topology reads its raw
     * topic to the end, and the runs after the backlog added to the real one); it ends as the
     * ceilings do, its raw and repartition records committed. Like for like with the copy: the
     * bench's processor figure also carries its sink and ClickHouse's inserts on the same cores.
     */
    public static double processorAlone(ProcessorConfig processor, String rawTopic, Map<Integer, Long> endOffsets, Path stateDir)
            throws Exception {
        return processorAloneRun(processor, rawTopic, endOffsets, stateDir).recordsPerSecond();
    }

    /**
     * The same, with its stream threads' and producers' CPU per record. Its application id and topics are named
     * after {@code processor}'s application id and whether it counts requests by route: a deleted
     * topic's name is not free at once, so each variant, and each run of a harness, needs its own.
     */
    static Rate processorAloneRun(ProcessorConfig processor, String rawTopic, Map<Integer, Long> endOffsets, Path stateDir)
            throws Exception {
        String applicationId = processor.applicationId() + (processor.requestsByRoute() ? "-alone" : "-alone-no-routes");
        Topics alone = aloneTopics(processor, "bench." + applicationId + ".");
        try (Admin admin = Admin.create(KafkaClients.adminProperties(processor.kafka(), null))) {
            admin.createTopics(List.of(new NewTopic(alone.transactions(), endOffsets.size(), (short) 1))).all().get(30, TimeUnit.SECONDS);
            try {
                long records = copyRecords(processor.kafka(), rawTopic, endOffsets, alone.transactions());
                return processorRun(processor, alone, applicationId, records, new PreAggregation(), stateDir);
            } finally {
                admin.deleteTopics(List.of(alone.transactions()));
            }
        }
    }

    /** The processor's topics under {@code prefix}, but for the projects topic: what {@link #processorOn} reads and writes. */
    public static Topics aloneTopics(ProcessorConfig processor, String prefix) {
        Topics real = processor.kafka().topics();
        Map<Aggregate, String> aggregates = new HashMap<>();
        Aggregate.ALL.forEach(aggregate -> aggregates.put(aggregate, prefix + aggregate.name()));
        return new Topics(prefix + "transactions", prefix + "errors", prefix + "sessions", real.projects(), prefix + "history", prefix + "error-history",
                prefix + "dead-letters", aggregates, real.partitions(), real.replicationFactor(), real.rawRetention(),
                real.minInsyncReplicas(), real.quotaUsage());
    }

    /**
     * Records/s of the processor's own topology over the {@code records} in {@code alone}'s raw
     * transactions topic (which exists), from 20% committed to all of them counted; its output
     * topics are created and deleted here.
     */
    public static double processorOn(ProcessorConfig processor, Topics alone, String applicationId, long records,
                              PreAggregation preAggregation, Path stateDir) throws Exception {
        return processorRun(processor, alone, applicationId, records, preAggregation, stateDir).recordsPerSecond();
    }

    /** The same, with the stream threads' CPU per record; a record sent to the dead letters makes the run invalid. */
    private static Rate processorRun(ProcessorConfig processor, Topics alone, String applicationId, long records,
                                    PreAggregation preAggregation, Path stateDir) throws Exception {
        DeadLetterCounts deadLetters = new DeadLetterCounts();
        Topology topology = ProcessorService.topology(processor, alone, deadLetters, new RecordsReadFromJson(),
                processor.cardinalityLimits(), preAggregation);
        List<String> outputs = new ArrayList<>(List.of(alone.errors(), alone.sessions(), alone.history(), alone.errorHistory(),
                alone.deadLetters()));
        outputs.addAll(alone.aggregates().values());
        Rate run = measure(processor, applicationId, topology, alone.transactions(), outputs, true, records, stateDir);
        long dead = deadLetters.unparseableCount() + deadLetters.unproducibleCount();
        if (dead != 0) {
            throw new IllegalStateException(applicationId + ": " + dead + " records went to the dead letters");
        }
        return run;
    }

    /**
     * The records of {@code from} below {@code endOffsets}, to the same partitions of {@code to}, headers and timestamps kept;
     * how many: an aborted transaction's records and the markers are not copied, so {@code to} may have fewer offsets.
     */
    static long copyRecords(KafkaSettings kafka, String from, Map<Integer, Long> endOffsets, String to) {
        Properties consumerProps = KafkaClients.consumerProperties(kafka, "bench-alone-copy");
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Properties producerProps = KafkaClients.producerProperties(kafka, "bench-alone-copy");
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<TopicPartition> partitions = endOffsets.keySet().stream().map(partition -> new TopicPartition(from, partition)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            long copied = 0;
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < endOffsets.get(partition.partition()))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + from + " to " + endOffsets + " in 5 minutes");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() < endOffsets.get(record.partition())) {
                        producer.send(new ProducerRecord<>(to, record.partition(), record.timestamp(), record.key(), record.value(),
                                record.headers()));
                        copied++;
                    }
                }
            }
            producer.flush();
            return copied;
        }
    }

    /**
     * Ends when {@code records} raw records are committed and, for a topology that repartitions,
     * every repartitioned record too: the group's offsets at the repartition topics' ends, twice a
     * flush of the pre-aggregated sums apart (the processor sends far fewer repartitioned records
     * than it reads, see {@code PartialCounts}; the shape sends one per record).
     */
    private static Rate measure(ProcessorConfig processor, String applicationId, Topology topology, String rawTopic,
                                List<String> outputs, boolean repartitioned, long records, Path stateDir) throws Exception {
        String threads = applicationId + ": stream threads and producers";
        CpuClock clock = CpuClock.ofThisJvm(applicationId, List.of(new CpuClock.Component(threads,
                List.of(applicationId, "kafka-producer-network-thread | " + applicationId))));
        try (Admin admin = Admin.create(KafkaClients.adminProperties(processor.kafka(), null))) {
            int partitions = admin.describeTopics(List.of(rawTopic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(rawTopic).partitions().size();
            List<NewTopic> topics = new ArrayList<>();
            outputs.forEach(name -> topics.add(new NewTopic(name, partitions, (short) 1)));
            admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
            try (KafkaStreams streams = new KafkaStreams(topology, properties(processor, applicationId, stateDir))) {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                streams.setUncaughtExceptionHandler(error -> {
                    failure.set(error);
                    return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
                });
                streams.start();
                long startedAt = 0;
                CpuWindow cpu = null;
                int caughtUp = 0;
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                while (System.nanoTime() < deadline) {
                    if (failure.get() != null) {
                        throw new IllegalStateException(applicationId + " failed", failure.get());
                    }
                    Map<TopicPartition, Long> done = committed(admin, applicationId);
                    long raw = done.entrySet().stream().filter(offset -> offset.getKey().topic().equals(rawTopic))
                            .mapToLong(Map.Entry::getValue).sum();
                    if (startedAt == 0 && raw >= records / 5) {
                        startedAt = System.nanoTime();
                        cpu = CpuWindow.start(clock, threads);
                    }
                    if (raw >= records) {
                        caughtUp = !repartitioned || repartitionCaughtUp(admin, done) ? caughtUp + 1 : 0;
                        if (caughtUp == 3) {
                            double rate = (records - records / 5) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                            return new Rate(rate, CpuWindow.microsPerEvent(cpu.coresUsed(), rate));
                        }
                    }
                    Thread.sleep(100);
                }
                throw new IllegalStateException(applicationId + " did not work off " + records + " records in 10 minutes");
            } finally {
                admin.deleteTopics(outputs);
            }
        }
    }

    /**
     * Whether the group's committed offsets are at the end of every repartition partition it reads,
     * but for the last transaction's commit marker: an idle application's committed offset may stop
     * just before it (with the strict check the processor's harness once waited, idle, for 8 minutes).
     */
    private static boolean repartitionCaughtUp(Admin admin, Map<TopicPartition, Long> committed) throws Exception {
        Map<TopicPartition, OffsetSpec> repartitions = new HashMap<>();
        committed.keySet().stream().filter(partition -> partition.topic().endsWith("-repartition"))
                .forEach(partition -> repartitions.put(partition, OffsetSpec.latest()));
        if (repartitions.isEmpty()) {
            return false;
        }
        var ends = admin.listOffsets(repartitions).all().get(30, TimeUnit.SECONDS);
        return ends.entrySet().stream().allMatch(end -> committed.get(end.getKey()) >= end.getValue().offset() - 1);
    }

    /** The processor's own Streams settings, under the ceiling's application id and state directory. */
    private static Properties properties(ProcessorConfig processor, String applicationId, Path stateDir) {
        Properties props = ProcessorService.streamsProperties(processor, new DeadLetterCounts());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        return props;
    }

    /** Records the application has committed as done, by partition: its group's committed offsets. */
    private static Map<TopicPartition, Long> committed(Admin admin, String applicationId) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(applicationId)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, Long> done = new HashMap<>();
        offsets.forEach((partition, offset) -> {
            if (offset != null) {
                done.put(partition, offset.offset());
            }
        });
        return done;
    }
}
