package io.sluice.processor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.events.EventHeaders;
import io.sluice.kafka.TopicSetup;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * A measurement, not a test (runs only with -Dsluice.memoryHarness=true): the peak resident memory
 * (VmHWM) of a processor JVM (-Xmx512m, two stream threads, default RocksDB budget) working off a
 * backlog of transactions until every one is in ClickHouse. Prints the number.
 *
 * <pre>mvn -pl processor -am verify -Dtest=NONE -Dit.test=ProcessorMemoryHarness -Dsluice.memoryHarness=true \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false</pre>
 */
@ExtendWith(RealEngines.class)
@EnabledIfSystemProperty(named = "sluice.memoryHarness", matches = "true")
class ProcessorMemoryHarness {
    private static final int BACKLOG = Integer.getInteger("sluice.memoryHarness.records", 300_000);

    @Test
    void peakRssWorkingOffABacklog(Engines engines, @TempDir Path stateDir) throws Exception {
        Map<String, String> values = TestSettings.isolated("memory", engines, stateDir).toMap();
        values.put("SLUICE_PROCESSOR_THREADS", "2");
        Settings settings = new Settings(values);
        KafkaSettings kafka = KafkaSettings.from(settings);
        TopicSetup.ensureTopics(kafka);
        String topic = kafka.topics().transactions();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            Instant now = Instant.now();
            for (int i = 0; i < BACKLOG; i++) {
                String project = "p" + (i % 50);
                String json = "{\"transaction\": \"GET /items/" + i + "\", \"environment\": \"production\", \"tags\": {\"http.status_code\": 200}}";
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, now.toEpochMilli(),
                        project.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
                EventHeaders.put(record.headers(), EventHeaders.EVENT_ID, "e" + i);
                EventHeaders.put(record.headers(), EventHeaders.PROJECT, project);
                EventHeaders.put(record.headers(), EventHeaders.EVENT_TIME, Long.toString(now.toEpochMilli()));
                EventHeaders.put(record.headers(), EventHeaders.RECEIVED_AT, Long.toString(now.toEpochMilli()));
                producer.send(record);
            }
            producer.flush();
        }
        System.out.printf("backlog of %d records written in %.1f s%n", BACKLOG, (System.nanoTime() - start) / 1e9);

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"), ProcessorMain.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(stateDir.resolve("processor.log").toFile());
        builder.environment().putAll(values);
        Process processor = builder.start();
        start = System.nanoTime();
        long peakRss = 0;
        String database = values.get("SLUICE_CLICKHOUSE_DATABASE");
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
            long stored = 0;
            while (stored < BACKLOG && System.nanoTime() < deadline && processor.isAlive()) {
                Thread.sleep(500);
                peakRss = Math.max(peakRss, statusKib(processor.pid(), "VmRSS:"));
                try {
                    stored = Long.parseLong(ClickHouseQuery.run(engines, "SELECT count() FROM " + database + ".transactions").strip());
                } catch (RuntimeException notYet) {
                    // the table appears when the processor has applied the schema
                }
            }
            long hwm = statusKib(processor.pid(), "VmHWM:");
            System.out.printf("processor stored %d of %d in %.1f s; peak RSS sampled %d MiB, VmHWM %d MiB%n",
                    stored, BACKLOG, (System.nanoTime() - start) / 1e9, peakRss / 1024, hwm / 1024);
        } finally {
            processor.destroy();
            processor.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static long statusKib(long pid, String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }
}
