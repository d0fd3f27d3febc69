package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.TrafficRow;

/** Estimated requests beside the exact counts: what sampled transactions stand for, without Kafka. */
class EstimatedTrafficTest {
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant MINUTE = Instant.parse("2026-11-22T10:15:00Z");

    @TempDir
    Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> transactions;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "estimates-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24), 0, ProcessorTopology.DEFAULT_LATE_MARGIN,
                new DeadLetterCounts(), new RecordsReadFromJson(), new FilterMemory(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES),
                CardinalityLimits.ofRoutes(50)), props);
        transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void transactionsSampledAtAQuarterAreEstimatedAtFourTimesTheirCountInEveryTrafficAggregate() {
        for (int i = 0; i < 3; i++) {
            send("q" + i, "200", ", \"sample_rate\": 0.25");
        }
        send("q3", "503", ", \"sample_rate\": 0.25");
        TrafficRow minute = last(TOPICS.traffic(), TrafficRow.class);
        assertEquals(List.of(4L, 3L, 1L), List.of(minute.requests(), minute.status2xx(), minute.status5xx()));
        assertEquals(List.of(16.0, 12.0, 4.0, 0.0), List.of(minute.estimatedRequests(), minute.estimated2xx(),
                minute.estimated5xx(), minute.estimatedNone()));
        TrafficRow hour = last(TOPICS.traffic1h(), TrafficRow.class);
        assertEquals(List.of(4L, 16.0, 12.0), List.of(hour.requests(), hour.estimatedRequests(), hour.estimated2xx()));
    }

    @Test
    void perRouteRowsEstimateEachStatusCodesRequests() {
        send("a", "200", ", \"sample_rate\": 0.25");
        send("b", "200", ", \"sample_rate\": 0.5");
        RequestRow minute = last(TOPICS.requests1m(), RequestRow.class);
        assertEquals(2, minute.requests());
        assertEquals(6.0, minute.estimatedRequests());
        assertEquals(6.0, last(TOPICS.requests1h(), RequestRow.class).estimatedRequests());
    }

    @Test
    void transactionsWithoutARateAreEstimatedAtTheirCount() {
        send("a", "200", "");
        send("b", "404", "");
        TrafficRow minute = last(TOPICS.traffic(), TrafficRow.class);
        assertEquals(List.of(2.0, 1.0, 1.0), List.of(minute.estimatedRequests(), minute.estimated2xx(), minute.estimated4xx()));
        assertEquals(1.0, last(TOPICS.requests1m(), RequestRow.class).estimatedRequests(), "the 404's row, of one request");
    }

    @Test
    void anInvalidRateCountsAsOne() {
        send("a", "200", ", \"sample_rate\": 4");
        send("b", "200", ", \"sample_rate\": 0.5");
        assertEquals(3.0, last(TOPICS.traffic(), TrafficRow.class).estimatedRequests());
    }

    private void send(String eventId, String status, String rate) {
        Instant time = MINUTE.plusSeconds(1);
        String json = "{\"transaction\": \"GET /a\", \"transaction_info\": {\"source\": \"route\"}, \"environment\": \"production\","
                + " \"contexts\": {\"trace\": {\"op\": \"http.server\"}}, \"tags\": {\"http.status_code\": \"" + status + "\"}" + rate + "}";
        transactions.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8),
                RequestAggregatesTest.headers("shop", eventId, time), time));
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
    }

    private <R> R last(String topic, Class<R> type) {
        List<R> rows = driver.createOutputTopic(topic, new StringDeserializer(), JsonSerde.of(type).deserializer()).readValuesToList();
        return rows.get(rows.size() - 1);
    }
}
