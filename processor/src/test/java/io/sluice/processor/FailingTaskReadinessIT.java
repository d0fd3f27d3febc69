package io.sluice.processor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.kafka.TopicSetup;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.topology.JsonSerde;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;
import io.sluice.testkit.TestSettings;

/**
 * A task that fails on every new stream thread makes /readyz 503 with the reason, though the
 * thread is replaced each time and Streams is RUNNING between the failures. The failure is the
 * one a rolling upgrade can cause: a store value the instance cannot read (as when a task moves
 * back to an instance of the former version). Here the traffic-1m window store's changelog gets,
 * for the minute the next event updates, bytes that TrafficCountsSerde reads as no known format;
 * an instance with an empty state directory restores them, and the aggregation fails reading them
 * on every new thread, since the failed transaction leaves the event unprocessed. The new thread
 * gets the task once the failed one's consumer session times out (45 s by default; {@link
 * #SESSION_TIMEOUT} here, so that the third failure comes ~20 s after the first, not ~90 s);
 * Streams is RUNNING nearly all that time (a sample of 100 answers over 20 s found it RUNNING in
 * all), which /readyz alone took for ready.
 */
@ExtendWith(RealEngines.class)
class FailingTaskReadinessIT {
    private static final String NAME = "failingtask";
    /** Neither the binary format's first byte (1) nor the former JSON's ('{'). */
    private static final byte[] UNREADABLE = {(byte) 0xFF, 0x00};
    private static final Pattern FAILURES = Pattern.compile("stream threads failed (\\d+) times in the last 5 min; last: "
            + "StreamsException: Exception caught in process\\. taskId=\\d+_\\d+, processor=[^,]+, topic=sluice-" + NAME
            + "-traffic-by-environment-repartition, partition=\\d+, offset=\\d+ \\(cause: SerializationException: "
            + "traffic counts from sluice-" + NAME + "-traffic-1m-changelog in an unknown format\\)\"]}$");
    /**
     * Longer than the 5 s within which StreamThreadFailures counts failures as one, so that each
     * new thread's failure is counted; the failures' window stays its 5 minutes.
     */
    private static final String SESSION_TIMEOUT = "10000";
    private static final Pattern FAILURES_METRIC = Pattern.compile("(?m)^sluice_processor_stream_thread_failures_total (\\d+)\\.0$");

    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aTaskFailingOnEveryNewThreadMakesReadiness503WithTheReason(Engines engines) throws Exception {
        Map<String, String> values = TestSettings.isolated(NAME, engines, workDir.resolve("first")).toMap();
        values.put("SLUICE_KAFKA_PROPERTY_SESSION_TIMEOUT_MS", SESSION_TIMEOUT);
        ProcessorConfig config = ProcessorConfig.from(new Settings(values));
        TopicSetup.ensureTopics(config.kafka());
        String topic = config.kafka().topics().transactions();
        String changelog = config.applicationId() + "-traffic-1m-changelog";
        String requests = "SELECT sum(requests) FROM " + values.get("SLUICE_CLICKHOUSE_DATABASE") + ".traffic_1m FINAL";
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(5));

        try (RawEvents raw = new RawEvents(engines.kafkaBootstrapServers())) {
            try (ProcessorService processor = ProcessorService.start(config)) {
                raw.transaction(topic, "shop", "a", minute.plusSeconds(1), 200);
                assertEquals("1", Await.until(Duration.ofSeconds(90), "1", () -> ClickHouseQuery.run(engines, requests)));
            }
            // The minute's counts in the changelog; their key is the window store's: the grouping
            // key's bytes, the window's start and a sequence number (0: no duplicates kept).
            List<ConsumerRecord<byte[], byte[]>> counts = KafkaRecords.upToEnd(engines, changelog, Duration.ofSeconds(30), r -> true);
            assertEquals(1, counts.stream().map(record -> ByteBuffer.wrap(record.key())).distinct().count(), "one event, one window");
            ConsumerRecord<byte[], byte[]> stored = counts.get(counts.size() - 1);
            byte[] grouping = JsonSerde.of(TrafficKey.class).serializer().serialize(changelog, new TrafficKey("shop", "production"));
            assertArrayEquals(ByteBuffer.allocate(grouping.length + 12).put(grouping).putLong(minute.toEpochMilli()).putInt(0).array(),
                    stored.key());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, engines.kafkaBootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(changelog, stored.partition(), stored.timestamp(), stored.key(), UNREADABLE)).get();
            }

            // Another instance (empty state directory) restores the store, then the minute's next event comes.
            values.put("SLUICE_PROCESSOR_STATE_DIR", workDir.resolve("second").toString());
            try (ProcessorService processor = ProcessorService.start(ProcessorConfig.from(new Settings(values)))) {
                String admin = "http://127.0.0.1:" + processor.adminPort();
                raw.transaction(topic, "shop", "b", minute.plusSeconds(2), 200);
                Await.until(Duration.ofSeconds(180), true, () -> FAILURES.matcher(get(admin + "/readyz").body()).find());

                HttpResponse<String> ready = get(admin + "/readyz");
                assertEquals(503, ready.statusCode());
                // Streams may be RUNNING or REBALANCING at that moment: either is said before the failures.
                assertTrue(ready.body().matches("\\{\"status\":\"not_ready\",\"streams\":\"[A-Z_]+\",\"reasons\":\\[\""
                        + "(Kafka Streams is [A-Z_]+, not RUNNING\",\")?" + FAILURES.pattern()), ready.body());
                Matcher said = FAILURES.matcher(ready.body());
                assertTrue(said.find());
                int failuresSaid = Integer.parseInt(said.group(1));
                assertTrue(failuresSaid >= 3, ready.body());
                // The failures go on while the test looks, so the counter is at least what /readyz said.
                Matcher counted = FAILURES_METRIC.matcher(get(admin + "/metrics").body());
                assertTrue(counted.find(), "sluice_processor_stream_thread_failures_total is exposed");
                assertTrue(Integer.parseInt(counted.group(1)) >= failuresSaid, counted.group());
                assertEquals("1", ClickHouseQuery.run(engines, requests), "the minute's second event is not counted");
            }
        }
    }

    private static HttpResponse<String> get(String url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("cannot GET " + url, e);
        }
    }
}
