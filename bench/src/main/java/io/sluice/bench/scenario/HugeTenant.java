package io.sluice.bench.scenario;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.bench.ceiling.StreamsCeiling;
import io.sluice.bench.load.Payloads;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Topics;
import io.sluice.events.EventHeaders;
import io.sluice.events.FieldsHeader;
import io.sluice.events.TransactionFields;
import io.sluice.gateway.publish.PartitionChooser;
import io.sluice.kafka.KafkaClients;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.topology.PreAggregation;

/**
 * The processor with one tenant at 90% of the traffic against the same number of transactions
 * spread evenly over {@link #SMALL_PROJECTS} projects, one after the other in the same run: its own
 * topology in this JVM, without its sink (as {@link StreamsCeiling#processorAlone}), over raw
 * records written as the gateway writes them (its headers, the partition its {@link PartitionChooser}
 * picks from token and event id), and which tasks added the transactions up ({@link PreAggregation}).
 */
public final class HugeTenant {
    public static final int SMALL_PROJECTS = 100;
    /** Transactions per shape: some ten seconds of work each on two cores. */
    public static final long RECORDS = 400_000;
    /** Of every ten transactions, this many are the huge tenant's. */
    private static final int HUGE_IN_TEN = 9;
    /** Event times spread over the five minutes before the run, as live traffic is. */
    private static final long SPREAD_MILLIS = 5 * 60_000;

    /** One shape's figures: its rate, the transactions each task added up, the sums they sent through the repartition. */
    public record Result(String shape, long records, double recordsPerSecond, Map<String, Long> eventsByTask, long sumsSent) {
        /** Tasks that added up at least one transaction. */
        long countingTasks() {
            return eventsByTask.values().stream().filter(events -> events > 0).count();
        }

        /** The busiest task's share of the transactions. */
        double busiestShare() {
            long total = eventsByTask.values().stream().mapToLong(Long::longValue).sum();
            return total == 0 ? 0 : eventsByTask.values().stream().mapToLong(Long::longValue).max().orElse(0) / (double) total;
        }
    }

    private HugeTenant() {
    }

    /** One line per shape, as {@code ./sluice bench} prints them. */
    public static void print(List<Result> results, int partitions, java.io.PrintStream out) {
        for (Result result : results) {
            long events = result.eventsByTask().values().stream().mapToLong(Long::longValue).sum();
            out.printf("%-34s %12.0f   counted by %d of %d tasks (the busiest added up %.0f%% of the transactions); "
                            + "%d sums through the repartition, %.0f transactions a sum%n",
                    "processor, " + result.shape(), result.recordsPerSecond(), result.countingTasks(), partitions,
                    100 * result.busiestShare(), result.sumsSent(), events / (double) Math.max(1, result.sumsSent()));
        }
    }

    /**
     * Each shape twice, alternating, so neither gains from running second (a warmer JIT, a quieter
     * machine). Every raw topic is written before the first run: writing while the broker deleted
     * an earlier run's topics timed records out on this machine.
     */
    public static List<Result> measure(ProcessorConfig processor, long records, Path work) throws Exception {
        List<String> runs = List.of("huge-1", "even-1", "huge-2", "even-2");
        Map<String, Topics> topics = new java.util.LinkedHashMap<>();
        runs.forEach(run -> topics.put(run, StreamsCeiling.aloneTopics(processor, "bench.tenants-" + run + ".")));
        try (Admin admin = Admin.create(KafkaClients.adminProperties(processor.kafka(), null))) {
            List<String> raw = topics.values().stream().map(Topics::transactions).toList();
            admin.createTopics(raw.stream().map(name -> new NewTopic(name, processor.kafka().topics().partitions(), (short) 1)).toList())
                    .all().get(30, TimeUnit.SECONDS);
            try {
                for (String run : runs) {
                    write(processor, topics.get(run).transactions(), processor.kafka().topics().partitions(), records, run.startsWith("huge"));
                }
                List<Result> results = new java.util.ArrayList<>();
                for (String run : runs) {
                    PreAggregation preAggregation = new PreAggregation();
                    double rate = StreamsCeiling.processorOn(processor, topics.get(run), "bench-tenants-" + run, records, preAggregation,
                            work.resolve("tenants-" + run));
                    String shape = (run.startsWith("huge") ? "one tenant at 90%, " : SMALL_PROJECTS + " tenants evenly, ") + run.charAt(5);
                    results.add(new Result(shape, records, rate, preAggregation.eventsByTask(), preAggregation.sumsSent()));
                }
                return results;
            } finally {
                admin.deleteTopics(raw);
            }
        }
    }

    /**
     * The raw transactions' producer. Not idempotent: on a topic just created the broker may refuse a
     * partition's first batch (NOT_LEADER_OR_FOLLOWER) and take the next one, accepting any sequence from
     * a producer it holds no state for; the idempotent client then retries that first batch, sequence 0,
     * against the broker's later end without bumping its epoch (Kafka 4.3.1, {@code TransactionManager.canRetry})
     * until its delivery timeout, and the stage fails. A record a retry writes twice is one the
     * processor's first sighting drops, and the stage ends when at least its records are committed.
     */
    private static Properties writerProperties(KafkaSettings kafka) {
        Properties props = KafkaClients.producerProperties(kafka, "bench-tenants");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // Not the gateway's short delivery timeout: on a busy machine a record waits rather than fails.
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
        return props;
    }

    /** The raw transactions, each with the headers the gateway sets, in the partition it would choose. */
    static void write(ProcessorConfig processor, String topic, int partitions, long records, boolean huge) throws Exception {
        byte[] body = Payloads.transaction();
        byte[] fields = TransactionFields.of(new ObjectMapper().readTree(body)).toHeader(body.length);
        PartitionChooser chooser = PartitionChooser.development();
        Properties props = writerProperties(processor.kafka());
        long start = System.currentTimeMillis() - SPREAD_MILLIS;
        java.util.concurrent.atomic.AtomicReference<Exception> failed = new java.util.concurrent.atomic.AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.partitionsFor(topic); // a new topic: its metadata before the load
            for (long i = 0; i < records; i++) {
                String token = huge && i % 10 < HUGE_IN_TEN ? "huge-tenant" : "tenant-" + (i % SMALL_PROJECTS);
                String eventId = String.format("%032x", i);
                long eventTime = start + i * SPREAD_MILLIS / records;
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, chooser.partition(token, eventId, partitions),
                        eventTime, token.getBytes(StandardCharsets.UTF_8), body);
                EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, eventId);
                EventHeaders.put(record.headers(), EventHeaders.PROJECT, token);
                EventHeaders.put(record.headers(), EventHeaders.ENDPOINT, "transaction");
                EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(eventTime));
                EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(eventTime));
                record.headers().add(FieldsHeader.NAME, fields);
                producer.send(record, (metadata, error) -> {
                    if (error != null) {
                        failed.compareAndSet(null, error);
                    }
                });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            // The run's end is "every record counted": one lost here and it would wait to its deadline.
            throw new IllegalStateException("could not write the bench's raw transactions to " + topic, failed.get());
        }
    }
}
