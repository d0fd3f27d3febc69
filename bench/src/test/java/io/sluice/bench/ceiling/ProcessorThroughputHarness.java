package io.sluice.bench.ceiling;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.ProcessorConfig;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * A measurement, not a test (runs only with -Dsluice.throughputHarness=true): records/s of the
 * processor's Kafka Streams application alone (no sink), in this JVM, working off a backlog of
 * the bench's ~600-byte transaction with the gateway's seven headers and distinct event ids.
 * Each run is the bench's own ceiling, {@link StreamsCeiling#processorAloneRun}: a fresh
 * application (own id, topics and state) over a copy of the same backlog, done when every raw
 * record and every repartitioned sum is committed. Records/s are counted from 20% to 100% (the
 * start is JIT warm-up), with the stream threads' CPU time per record over the same span: on a
 * busy machine the CPU time per record is the steadier number. With
 * -Dsluice.throughputHarness.jfr=DIR the last run records a JFR profile there (the whole run,
 * its copy and warm-up included). With -Dsluice.throughputHarness.variants="|SLUICE_X=1,SLUICE_Y=2" runs alternate
 * between the defaults and those settings (A/B in one JVM, over one backlog); for instance
 * {@code "|SLUICE_PROCESSOR_REQUESTS_BY_ROUTE=false"}: what the transactions' per-route aggregates cost.
 *
 * <pre>mvn -pl bench -am verify -Dtest=NONE -Dit.test=ProcessorThroughputHarness -Dsluice.throughputHarness=true \
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
        Map<String, String> values = TestSettings.isolated("throughput", engines, stateDir).toMap();
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

        Map<Integer, Long> endOffsets = endOffsets(engines, topic);
        int runs = RUNS * VARIANTS.size();
        for (int run = 1; run <= runs; run++) {
            Map<String, String> variant = VARIANTS.get((run - 1) % VARIANTS.size());
            Map<String, String> runValues = new HashMap<>(values);
            runValues.putAll(variant);
            runValues.put("SLUICE_PROCESSOR_APPLICATION_ID", "sluice-throughput-" + run);
            ProcessorConfig config = ProcessorConfig.from(new Settings(runValues));
            jdk.jfr.Recording recording = !JFR.isEmpty() && run == runs ? profile() : null;
            StreamsCeiling.Rate result = StreamsCeiling.processorAloneRun(config, topic, endOffsets, stateDir.resolve("run" + run));
            if (recording != null) {
                recording.stop();
                recording.close();
                System.out.println("profile: " + Path.of(JFR).resolve("processor-harness.jfr"));
            }
            System.out.printf("run %d %s: %.0f records/s, stream threads %.1f µs CPU per record%n", run,
                    variant.isEmpty() ? "(defaults)" : variant, result.recordsPerSecond(), result.cpuMicrosPerRecord());
        }
    }

    private static jdk.jfr.Recording profile() throws Exception {
        jdk.jfr.Recording recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
        recording.setDestination(Path.of(JFR).resolve("processor-harness.jfr"));
        recording.start();
        return recording;
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

    /** The backlog's end, by partition: what each run works off. */
    private static Map<Integer, Long> endOffsets(Engines engines, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", engines.kafkaBootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int partition = 0; partition < partitions(engines, topic); partition++) {
                latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
            }
            Map<Integer, Long> ends = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((partition, end) -> ends.put(partition.partition(), end.offset()));
            return ends;
        }
    }
}
