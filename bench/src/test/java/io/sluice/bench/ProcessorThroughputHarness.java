package io.sluice.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.events.FieldsHeader;
import io.sluice.events.TransactionFields;
import io.sluice.kafka.KafkaClients;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.ProcessorService;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.PreAggregation;
import io.sluice.testkit.Engines;
import io.sluice.testkit.IsolatedSettings;
import io.sluice.testkit.RealEngines;

/**
 * A measurement, not a test (runs only with -Dsluice.throughputHarness=true): records/s of the
 * processor's Kafka Streams application alone (no sink), in this JVM, working off a backlog of
 * the bench's ~600-byte transaction with the gateway's seven headers and distinct event ids.
 * Each run is a fresh application (own id and state) over the same backlog; a run is done when
 * the application has committed every raw record and its committed offsets are at the end of every
 * repartition partition, three polls in a row (exactly-once: the history and aggregate records are
 * then committed too; the partial sums send far fewer repartition records than raw ones, so their
 * number is not known in advance). Records/s are counted from 20% to
 * 100% (the start is JIT warm-up), with the stream threads' CPU time per record over the same
 * span: on a busy machine the CPU time per record is the steadier number. With -Dsluice.throughputHarness.jfr=DIR the last run records
 * a JFR profile there. With -Dsluice.throughputHarness.variants="|SLUICE_X=1,SLUICE_Y=2" runs alternate
 * between the defaults and those settings (A/B in one JVM, over one backlog); for instance
 * {@code "|SLUICE_PROCESSOR_REQUESTS_BY_ROUTE=false"}: what the transactions' per-route aggregates cost.
 *
 * <pre>mvn -pl processor -am verify -Dtest=NONE -Dit.test=ProcessorThroughputHarness -Dsluice.throughputHarness=true \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false</pre>
 */
@ExtendWith(RealEngines.class)
@EnabledIfSystemProperty(named = "sluice.throughputHarness", matches = "true")
class ProcessorThroughputHarness {
    private static final int BACKLOG = Integer.getInteger("sluice.throughputHarness.records", 300_000);
    private static final int RUNS = Integer.getInteger("sluice.throughputHarness.runs", 2);
    private static final String JFR = System.getProperty("sluice.throughputHarness.jfr", "");
    /**
     * Settings to compare, '|' between variants, ',' between NAME=VALUE settings of one variant (an
     * empty variant is the defaults): each round runs every variant once, in turn, over the same backlog.
     */
    private static final List<Map<String, String>> VARIANTS = variants(System.getProperty("sluice.throughputHarness.variants", ""));
    /** Records as an older gateway wrote them, without the fields it read ({@code FieldsHeader}): the processor parses the JSON. */
    private static final boolean WITHOUT_FIELDS = Boolean.getBoolean("sluice.throughputHarness.withoutFields");

    /** The bench's body (bench Payloads.transaction()), with a start and end time (a duration). */
    private static byte[] body(Instant now) {
        return ("{\"transaction\": \"GET /api/users/{id}\", \"start_timestamp\": 1764000000.0, \"timestamp\": 1764000000.125, \"environment\": \"production\", \"release\": \"shop@2.14.0\","
                + " \"sent_at\": \"" + now + "\", \"platform\": \"python\","
                + " \"tags\": {\"http.status_code\": \"200\", \"server_name\": \"web-7\"},"
                + " \"sdk\": {\"name\": \"sentry.python.django\", \"version\": \"2.19.0\"},"
                + " \"contexts\": {\"trace\": {\"trace_id\": \"771a43a4192642f0b136d5159a501700\", \"span_id\": \"a0cfbde2bdff3adc\","
                + " \"op\": \"http.server\", \"status\": \"ok\", \"data\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}},"
                + " \"runtime\": {\"name\": \"CPython\", \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": \"6.1.0\"}},"
                + " \"user\": {\"id\": \"account-4242\"}, \"request\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void recordsPerSecond(Engines engines, @TempDir Path stateDir) throws Exception {
        Map<String, String> values = new HashMap<>(IsolatedSettings.of("throughput", engines, stateDir));
        values.put("SLUICE_PROCESSOR_THREADS", "2");
        KafkaSettings kafka = KafkaSettings.from(new Settings(values));
        TopicSetup.ensureTopics(kafka);
        String topic = kafka.topics().transactions();
        int partitions = partitions(engines, topic);
        long start = System.nanoTime();
        // Not idempotent, as the bench's huge-tenant writer (HugeTenant.writerProperties, which says why): on a
        // topic just created the idempotent client can retry a refused first batch until its delivery timeout.
        // A record written twice by a retry is one the processor's first sighting drops.
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            Instant now = Instant.now();
            byte[] json = body(now);
            byte[] fields = TransactionFields.of(new ObjectMapper().readTree(json)).toHeader(json.length); // as the gateway reads it
            String millis = Long.toString(now.toEpochMilli());
            for (int i = 0; i < BACKLOG; i++) {
                String project = "bench";
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, now.toEpochMilli(),
                        project.getBytes(StandardCharsets.UTF_8), json);
                EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, String.format("%032x", i));
                EventHeaders.put(record.headers(), EventHeaders.PROJECT, project);
                EventHeaders.put(record.headers(), EventHeaders.ENDPOINT, "transaction");
                EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, millis);
                EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, millis);
                EventHeaders.put(record.headers(), EventHeaders.TIME_ADJUSTED, "false");
                EventHeaders.put(record.headers(), EventHeaders.GATEWAY_VERSION, "harness");
                if (!WITHOUT_FIELDS) {
                    record.headers().add(FieldsHeader.NAME, fields);
                }
                // Spread over the partitions as the gateway does (by project and event id), not by key.
                producer.send(new ProducerRecord<>(topic, i % partitions, record.timestamp(), record.key(),
                        record.value(), record.headers()));
            }
            producer.flush();
        }
        System.out.printf("backlog of %d records (%s the gateway's fields) written in %.1f s%n", BACKLOG,
                WITHOUT_FIELDS ? "without" : "with", (System.nanoTime() - start) / 1e9);

        int runs = RUNS * VARIANTS.size();
        for (int run = 1; run <= runs; run++) {
            Map<String, String> variant = VARIANTS.get((run - 1) % VARIANTS.size());
            Map<String, String> runValues = new HashMap<>(values);
            runValues.putAll(variant);
            runValues.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-throughput-" + run);
            runValues.put("SLUICE_PROCESSOR_STATE_DIR", stateDir.resolve("run" + run).toString());
            ProcessorConfig config = ProcessorConfig.from(new Settings(runValues));
            boolean profile = !JFR.isEmpty() && run == runs;
            double[] result = measure(config, profile);
            System.out.printf("run %d %s: %.0f records/s, stream threads %.1f µs CPU per record%n", run,
                    variant.isEmpty() ? "(defaults)" : variant, result[0], result[1]);
        }
    }

    private static List<Map<String, String>> variants(String given) {
        List<Map<String, String>> variants = new java.util.ArrayList<>();
        for (String variant : given.split("\\|", -1)) {
            Map<String, String> settings = new java.util.LinkedHashMap<>();
            for (String setting : variant.split(",")) {
                if (!setting.isBlank()) {
                    String[] nameAndValue = setting.strip().split("=", 2);
                    settings.put(nameAndValue[0], nameAndValue[1]);
                }
            }
            variants.add(settings);
        }
        return List.copyOf(variants);
    }

    private static int partitions(Engines engines, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", engines.kafkaBootstrapServers()))) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
        }
    }

    /** Records/s and the stream threads' CPU µs per record, from 20% to 100%. */
    private static double[] measure(ProcessorConfig config, boolean profile) throws Exception {
        DeadLetterCounts deadLetters = new DeadLetterCounts();
        jdk.jfr.Recording recording = null;
        try (Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka(), null));
             KafkaStreams streams = new KafkaStreams(ProcessorService.topology(config, config.kafka().topics(), deadLetters,
                     new RecordsReadFromJson(), config.cardinalityLimits(), new PreAggregation()),
                     ProcessorService.streamsProperties(config, deadLetters))) {
            streams.start();
            long startedAt = 0;
            long cpuAtStart = 0;
            int caughtUp = 0;
            String raw = config.kafka().topics().transactions();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
            while (System.nanoTime() < deadline) {
                Map<TopicPartition, Long> committed = committed(admin, config.applicationId());
                long rawDone = committed.entrySet().stream().filter(offset -> offset.getKey().topic().equals(raw))
                        .mapToLong(Map.Entry::getValue).sum();
                if (startedAt == 0 && rawDone >= BACKLOG / 5) {
                    startedAt = System.nanoTime();
                    cpuAtStart = streamThreadsCpuNanos();
                    if (profile) {
                        recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
                        recording.setDestination(Path.of(JFR).resolve("processor-harness.jfr"));
                        recording.start();
                    }
                }
                caughtUp = rawDone >= BACKLOG && repartitionsCaughtUp(admin, committed) ? caughtUp + 1 : 0;
                if (caughtUp == 3) { // every raw record, and every sum sent through a repartition topic
                    double rate = (BACKLOG - BACKLOG / 5) / Math.max(0.001, (System.nanoTime() - startedAt) / 1e9);
                    double cpuMicros = (streamThreadsCpuNanos() - cpuAtStart) / 1e3 / (BACKLOG - BACKLOG / 5);
                    if (recording != null) {
                        recording.stop();
                        recording.close();
                        System.out.println("profile: " + Path.of(JFR).resolve("processor-harness.jfr"));
                    }
                    if (deadLetters.unparseableCount() + deadLetters.unproducibleCount() != 0) {
                        throw new AssertionError(deadLetters.unparseableCount() + deadLetters.unproducibleCount() + " records went to the dead letters");
                    }
                    return new double[] {rate, cpuMicros};
                }
                Thread.sleep(50);
            }
            throw new AssertionError("the processor did not work off " + BACKLOG + " records in 15 minutes");
        }
    }

    /** CPU time the stream threads of this JVM have used (they live as long as the application). */
    private static long streamThreadsCpuNanos() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (java.lang.management.ThreadInfo thread : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (thread != null && thread.getThreadName().contains("StreamThread")) {
                total += Math.max(0, threads.getThreadCpuTime(thread.getThreadId()));
            }
        }
        return total;
    }

    /** The application's committed offsets (raw and repartition partitions), by partition. */
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

    /**
     * Whether the committed offsets are at the end of every repartition partition the application
     * reads, but for the last transaction's commit marker: an idle application's committed offset may
     * stop just before it (with the strict check the harness waited, the application idle, for 8 minutes).
     */
    private static boolean repartitionsCaughtUp(Admin admin, Map<TopicPartition, Long> committed) throws Exception {
        Map<TopicPartition, OffsetSpec> repartitions = new HashMap<>();
        committed.keySet().stream().filter(partition -> partition.topic().endsWith("-repartition"))
                .forEach(partition -> repartitions.put(partition, OffsetSpec.latest()));
        if (repartitions.isEmpty()) {
            return false;
        }
        var ends = admin.listOffsets(repartitions).all().get(30, TimeUnit.SECONDS);
        return ends.entrySet().stream().allMatch(end -> committed.get(end.getKey()) >= end.getValue().offset() - 1);
    }
}
