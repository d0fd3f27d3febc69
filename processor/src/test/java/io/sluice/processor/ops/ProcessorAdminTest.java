package io.sluice.processor.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.admin.AdminServer;
import io.sluice.events.EventHeaders;
import io.sluice.metrics.LastMeasurement;
import io.sluice.metrics.PrometheusMetrics;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.TransactionParser;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.sink.SinkMetrics;

/**
 * /readyz is 200 only while Kafka Streams is RUNNING: in any other state it is 503 and says which.
 * A KafkaStreams that was never started (CREATED) and one that was closed (NOT_RUNNING) are real
 * states reached without a broker; REBALANCING and ERROR go through the same comparison. Stream
 * threads failing again and again add their reason (the failures are recorded as the uncaught
 * exception handler records them, on a clock the test drives), and so does Kafka silent for longer
 * than its bound (on a clock of its own).
 */
class ProcessorAdminTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    java.nio.file.Path stateDir;

    private PrometheusMetrics metrics;
    private KafkaStreams streams;
    private AdminServer admin;
    /** The failures' clock (nanoTime), read on the admin's thread. */
    private final AtomicLong now = new AtomicLong();
    private StreamThreadFailures threadFailures;
    private final RecordsReadFromJson readFromJson = new RecordsReadFromJson();
    /** Kafka's silence's clock (nanoTime): the contact is created at 0, no broker has answered. */
    private final AtomicLong kafkaNow = new AtomicLong();
    private KafkaContact kafkaContact;

    @BeforeEach
    void start() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "readyz-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"); // never contacted: the streams are not started
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        streams = new KafkaStreams(builder.build(), props);
        metrics = new PrometheusMetrics();
        threadFailures = new StreamThreadFailures(StreamThreadFailures.DEFAULT_SESSION_TIMEOUT, now::get);
        kafkaContact = new KafkaContact(KafkaContact.UNREACHABLE_AFTER, kafkaNow::get);
        ProcessorMeters.bind(metrics, streams, new LastMeasurement(), new DeadLetterCounts(), readFromJson, threadFailures);
        admin = ProcessorAdmin.start("127.0.0.1", 0, streams, metrics, new SinkMetrics(Duration.ofMinutes(1), metrics.registry()),
                () -> true, threadFailures, kafkaContact);
    }

    @AfterEach
    void stop() {
        admin.close();
        streams.close(Duration.ofSeconds(5));
        metrics.close();
    }

    @Test
    void readinessIs503WithTheReasonWhileStreamsHaveNotStarted() throws Exception {
        HttpResponse<String> ready = get("/readyz");
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"not_ready\",\"streams\":\"CREATED\",\"reasons\":[\"Kafka Streams is CREATED, not RUNNING\"]}",
                ready.body());
    }

    @Test
    void readinessIs503WithTheReasonOnceStreamsAreClosed() throws Exception {
        streams.close(Duration.ofSeconds(5));
        assertEquals(KafkaStreams.State.NOT_RUNNING, streams.state());
        HttpResponse<String> ready = get("/readyz");
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"not_ready\",\"streams\":\"NOT_RUNNING\",\"reasons\":[\"Kafka Streams is NOT_RUNNING, not RUNNING\"]}",
                ready.body());
    }

    @Test
    void healthIs503OnceStreamsAreClosed() throws Exception {
        streams.close(Duration.ofSeconds(5));
        HttpResponse<String> health = get("/healthz");
        assertEquals(503, health.statusCode());
        assertEquals("{\"status\":\"failed\",\"streams\":\"NOT_RUNNING\"}", health.body());
    }

    @Test
    void readinessIs503WithTheReasonWhileStreamThreadsFailAgainAndAgainAndTheMetricCountsThem() throws Exception {
        StreamsException failure = new StreamsException("Exception caught in process. taskId=1_2, processor=count-traffic",
                new SerializationException("traffic counts from readyz-test-traffic-1m-changelog in an unknown format"));
        for (int i = 0; i < 3; i++) {
            threadFailures.record(failure);
            now.addAndGet(Duration.ofSeconds(5).toNanos());
        }
        HttpResponse<String> ready = get("/readyz");
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"not_ready\",\"streams\":\"CREATED\",\"reasons\":[\"Kafka Streams is CREATED, not RUNNING\","
                + "\"stream threads failed 3 times in the last 5 min; last: StreamsException: Exception caught in process. "
                + "taskId=1_2, processor=count-traffic (cause: SerializationException: traffic counts from "
                + "readyz-test-traffic-1m-changelog in an unknown format)\"]}", ready.body());
        assertTrue(get("/metrics").body().contains("\nsluice_processor_stream_thread_failures_total 3.0\n"));

        now.addAndGet(Duration.ofMinutes(5).toNanos()); // all three are older than the window
        assertEquals("{\"status\":\"not_ready\",\"streams\":\"CREATED\",\"reasons\":[\"Kafka Streams is CREATED, not RUNNING\"]}",
                get("/readyz").body());
        assertTrue(get("/metrics").body().contains("\nsluice_processor_stream_thread_failures_total 3.0\n"), "a counter: it keeps them");
    }

    @Test
    void recordsReadFromTheirJsonAreExposedByKindAndReasonEachFromZero() throws Exception {
        RecordHeaders noFields = new RecordHeaders();
        noFields.add(EventHeaders.EVENT_ID, "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8));
        noFields.add(EventHeaders.PROJECT, "token".getBytes(StandardCharsets.UTF_8));
        new TransactionParser(readFromJson).parse("{\"transaction\": \"GET /\"}".getBytes(StandardCharsets.UTF_8), noFields, 0, 0, 0);
        String metrics = get("/metrics").body();
        assertTrue(metrics.contains("\nsluice_processor_records_read_from_json_total{kind=\"transaction\",reason=\"no_header\"} 1.0\n"),
                metrics);
        assertEquals(6, metrics.lines().filter(line -> line.startsWith("sluice_processor_records_read_from_json_total{")).count());
        assertTrue(metrics.contains("\nsluice_processor_records_read_from_json_total{kind=\"error\",reason=\"other_version\"} 0.0\n"));
    }

    @Test
    void readinessIs503WithTheReasonOnceNoBrokerHasAnsweredForLongerThanTheBound() throws Exception {
        kafkaContact.answered();
        kafkaNow.addAndGet(Duration.ofSeconds(34).toNanos());
        HttpResponse<String> ready = get("/readyz");
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"not_ready\",\"streams\":\"CREATED\",\"reasons\":[\"Kafka Streams is CREATED, not RUNNING\","
                + "\"Kafka unreachable: no broker has answered for 34 s\"]}", ready.body());

        kafkaContact.answered();
        assertEquals("{\"status\":\"not_ready\",\"streams\":\"CREATED\",\"reasons\":[\"Kafka Streams is CREATED, not RUNNING\"]}",
                get("/readyz").body());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.port() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
