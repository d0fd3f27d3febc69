package io.sluice.bench.ceiling;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.bench.load.Payloads;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.gateway.publish.PartitionChooser;
import io.sluice.gateway.publish.PublishHealth;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * A measurement, not a test (runs only with -Dsluice.compressionHarness=true): the CPU a
 * published event costs the producer, the broker and a read_committed consumer together, in this
 * JVM (the broker runs in it), with the gateway's producer ({@link EventPublisher#durableProducer},
 * its publish path and its partitioning by event id over 12 partitions) at a paced rate, for each
 * compression type given. At a gateway's rates a partition's batch holds about one event, so a
 * compression codec's cost per batch is paid per event. Each run has topics of its own; the
 * variants alternate; the JVM's idle CPU, measured before each run, is taken off.
 *
 * <pre>mvn -pl bench -am verify -Dtest=NONE -Dit.test=PublishCompressionHarness -Dsluice.compressionHarness=true \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false</pre>
 */
@ExtendWith(RealEngines.class)
@EnabledIfSystemProperty(named = "sluice.compressionHarness", matches = "true")
class PublishCompressionHarness {
    private static final int EVENTS = Integer.getInteger("sluice.compressionHarness.events", 60_000);
    private static final int RATE = Integer.getInteger("sluice.compressionHarness.rate", 6_000);
    private static final int ROUNDS = Integer.getInteger("sluice.compressionHarness.rounds", 3);
    private static final List<String> CODECS = List.of(System.getProperty("sluice.compressionHarness.codecs", "lz4,none").split(","));
    private static final int PARTITIONS = 12;

    @Test
    void cpuPerPublishedEvent(Engines engines, @TempDir Path stateDir) throws Exception {
        EventValidator validator = new EventValidator(Duration.ofDays(30));
        List<AcceptedEvent> events = new ArrayList<>();
        for (byte[] body : Payloads.transactions(Payloads.VARIED)) {
            events.add(validator.validate(Endpoint.TRANSACTION, body, System.currentTimeMillis()));
        }
        int run = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            for (String codec : CODECS) {
                run++;
                Map<String, String> values = TestSettings.isolated("compression_" + run, engines, stateDir).toMap();
                values.put("SLUICE_TOPIC_PARTITIONS", Integer.toString(PARTITIONS));
                values.put("SLUICE_KAFKA_PROPERTY_COMPRESSION_TYPE", codec);
                KafkaSettings kafka = KafkaSettings.from(new Settings(values));
                TopicSetup.ensureTopics(kafka);
                double idleCoresBefore = idleCores();
                Result result = publishAndRead(kafka, events);
                double micros = (result.cpuNanos() - idleCoresBefore * result.wallNanos()) / 1e3 / EVENTS;
                System.out.printf("round %d %-5s: %.1f µs of CPU per event (producer, broker, consumer; idle %.1f%% taken off), "
                                + "%.0f events/s, %.0f bytes per event in the log%n", round, codec, micros, 100 * idleCoresBefore,
                        EVENTS / (result.wallNanos() / 1e9), (double) logBytes(engines, kafka.topics().transactions()) / EVENTS);
            }
        }
    }

    private record Result(long cpuNanos, long wallNanos) {
    }

    /** Publishes {@link #EVENTS} at {@link #RATE} a second, a few each millisecond, while a consumer reads them all back. */
    private static Result publishAndRead(KafkaSettings kafka, List<AcceptedEvent> events) throws Exception {
        PartitionChooser chooser = PartitionChooser.development();
        try (EventPublisher publisher = new EventPublisher(EventPublisher.durableProducer(kafka, EventPublisher.CLIENT_ID,
                Duration.ofSeconds(30), Duration.ofMillis(1), 1024 * 1024, 64L * 1024 * 1024), kafka.topics(), chooser,
                new PublishHealth(Duration.ofSeconds(10), System::nanoTime));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                     ConsumerConfig.GROUP_ID_CONFIG, "compression-harness-" + kafka.topics().transactions(),
                     ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                     ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            publisher.warmUp(Duration.ofSeconds(30));
            consumer.subscribe(List.of(kafka.topics().transactions()));
            consumer.poll(Duration.ofMillis(100));
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
                long seen = 0;
                while (seen < EVENTS) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        seen += record.value().length > 0 ? 1 : 0;
                    }
                }
            });
            List<CompletableFuture<Void>> acknowledged = new ArrayList<>(EVENTS);
            int perMilli = Math.max(1, RATE / 1000);
            for (int sent = 0; sent < EVENTS; ) {
                long due = start + (long) sent * 1_000_000_000L / RATE;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                for (int i = 0; i < perMilli && sent < EVENTS; i++, sent++) {
                    AcceptedEvent event = events.get(sent % events.size());
                    AcceptedEvent distinct = new AcceptedEvent(String.format("%032x", sent), event.eventTimeMillis(),
                            event.timeAdjusted(), event.fields(), event.json(), null);
                    acknowledged.add(publisher.publish("harness", Endpoint.TRANSACTION, distinct, event.json(), System.currentTimeMillis()));
                }
            }
            CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            read.get(120, TimeUnit.SECONDS);
            return new Result(processCpuNanos() - cpuStart, System.nanoTime() - start);
        }
    }

    /** Cores this JVM uses while nothing is sent (the broker's own work), over 3 s. */
    private static double idleCores() throws InterruptedException {
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        Thread.sleep(3_000);
        return (double) (processCpuNanos() - cpu) / (System.nanoTime() - start);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long logBytes(Engines engines, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", engines.kafkaBootstrapServers()))) {
            long bytes = 0;
            for (var dir : admin.describeLogDirs(List.of(1)).allDescriptions().get(30, TimeUnit.SECONDS).get(1).values()) {
                for (var replica : dir.replicaInfos().entrySet()) {
                    if (replica.getKey().topic().equals(topic)) {
                        bytes += replica.getValue().size();
                    }
                }
            }
            return bytes;
        }
    }
}
