package io.sluice.sink;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import com.clickhouse.client.api.Client;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.events.EventTime;
import io.sluice.kafka.TopicSetup;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.TestSettings;

/**
 * A sink alone, on its own topics and database: rows are produced straight into the history
 * topic (as the processor would write them) and land in {@code <db>.transactions}.
 */
final class SinkFixture implements AutoCloseable {
    final KafkaSettings kafka;
    final ClickHouseSettings clickHouse;
    /** How far back event time is accepted: what a replay reads. */
    final Duration eventTimeHorizon;
    final String db;
    final String history;
    final String deadLetters;
    final Client client;
    private final KafkaProducer<byte[], byte[]> producer;
    private final java.util.List<PrometheusMetrics> registries = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<ClickHouseSink, PrometheusMetrics> sinkMetrics = new java.util.concurrent.ConcurrentHashMap<>();

    SinkFixture(String name, Engines engines, String clickHouseUrl, Path stateDir) {
        Settings settings = TestSettings.isolated(name, engines, stateDir).with(ClickHouseSettings.URL, clickHouseUrl).build();
        kafka = KafkaSettings.from(settings);
        clickHouse = ClickHouseSettings.from(settings);
        eventTimeHorizon = settings.getDuration(EventTime.HORIZON);
        TopicSetup.ensureTopics(kafka);
        client = ClickHouseClients.create(clickHouse);
        SchemaMigrations.apply(client, clickHouse);
        db = clickHouse.database();
        history = kafka.topics().history();
        deadLetters = kafka.topics().deadLetters();
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, engines.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    ClickHouseSink sink(String group, SinkLimits limits) {
        PrometheusMetrics metrics = prometheus();
        ClickHouseSink sink = new ClickHouseSink(client, kafka, group, "", Map.of(history, db + ".transactions"),
                deadLetters, limits, metrics);
        sinkMetrics.put(sink, metrics);
        return sink;
    }

    /** A registry of its own for one sink, closed with the fixture. */
    PrometheusMetrics prometheus() {
        PrometheusMetrics metrics = new PrometheusMetrics();
        registries.add(metrics);
        return metrics;
    }

    /** The Prometheus text of a sink made by {@link #sink}. */
    String metrics(ClickHouseSink sink) {
        return sinkMetrics.get(sink).scrapeText();
    }

    static SinkLimits limits(int rows, long bytes, Duration interval) {
        return new SinkLimits(rows, bytes, interval, Duration.ofSeconds(60));
    }

    /** A history row as the processor writes it, padded with a long url to {@code size} bytes when asked. */
    static String row(String eventId, long timestamp, String transaction, int size) {
        String start = "{\"event_id\":\"" + eventId + "\",\"project\":\"shop\",\"timestamp\":" + timestamp
                + ",\"received_at\":" + timestamp + ",\"transaction\":\"" + transaction + "\",\"url\":\"";
        String end = "\"}";
        int padding = Math.max(0, size - start.length() - end.length());
        return start + "x".repeat(padding) + end;
    }

    void send(int partition, String json) {
        send(partition, json.getBytes(StandardCharsets.UTF_8));
    }

    void send(int partition, byte[] value) {
        send(history, partition, value);
    }

    /** A row into one of the processor's output topics, keyed by its project as the processor keys it. */
    void send(String topic, int partition, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, partition, "shop".getBytes(StandardCharsets.UTF_8), value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot write a row to " + topic, e);
        }
    }

    /**
     * Runs the statement {@code insert} gives for 0, 1, 2… straight into ClickHouse, one after the other, until closed:
     * a writer that reads no deletion or retention, whose rows land after any removal. Returns once the first is in.
     */
    /**
     * Inserts rows until closed, from three writers at once: under load one insert can take longer than
     * the moment a test needs a row to land in, and three in flight keep rows landing.
     */
    static AutoCloseable keepInserting(Engines engines, java.util.function.IntFunction<String> insert) throws InterruptedException {
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch first = new java.util.concurrent.CountDownLatch(1);
        java.util.List<Thread> writers = new java.util.ArrayList<>();
        for (int w = 0; w < 3; w++) {
            Thread writer = new Thread(() -> {
                while (writing.get()) {
                    try {
                        ClickHouseQuery.run(engines, insert.apply(next.getAndIncrement()));
                        first.countDown();
                    } catch (RuntimeException e) {
                        // a busy ClickHouse: the next one goes in
                    }
                }
            }, "keep-inserting-" + w);
            writer.start();
            writers.add(writer);
        }
        if (!first.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("the writers inserted nothing in 60 s");
        }
        return () -> {
            writing.set(false);
            for (Thread writer : writers) {
                writer.join(30_000);
            }
        };
    }

    static Thread start(ClickHouseSink sink, String name) {
        Thread thread = new Thread(sink, name);
        thread.start();
        return thread;
    }

    static void stop(ClickHouseSink sink, Thread thread) throws InterruptedException {
        sink.close();
        thread.join(30_000);
    }

    @Override
    public void close() {
        registries.forEach(PrometheusMetrics::close);
        producer.close();
        client.close();
    }
}
