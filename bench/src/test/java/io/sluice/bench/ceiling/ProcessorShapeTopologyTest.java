package io.sluice.bench.ceiling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.events.EventHeaders;

/** The ceiling in the processor's shape does the processor's Kafka work: each event once to history, counted once per minute. */
class ProcessorShapeTopologyTest {
    @TempDir
    Path stateDir;
    private static final Instant MINUTE = Instant.parse("2026-11-23T03:00:00Z");
    private static final byte[] BODY = "{\"transaction\":\"GET /\"}".getBytes(StandardCharsets.UTF_8);
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> raw;
    private TestOutputTopic<String, byte[]> history;
    private TestOutputTopic<String, Long> counts;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "shape-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // not the shared /tmp/kafka-streams: builds may run side by side
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0); // every count update visible at once
        driver = new TopologyTestDriver(ProcessorShapeTopology.build("raw", "history", "counts", Duration.ofHours(1), 8, Map.of()), props);
        raw = driver.createInputTopic("raw", Serdes.String().serializer(), Serdes.ByteArray().serializer());
        history = driver.createOutputTopic("history", Serdes.String().deserializer(), Serdes.ByteArray().deserializer());
        counts = driver.createOutputTopic("counts", Serdes.String().deserializer(), Serdes.Long().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private void send(String project, String eventId, Instant eventTime) {
        RecordHeaders headers = new RecordHeaders();
        EventHeaders.put(headers, EventHeaders.PROJECT, project);
        EventHeaders.put(headers, EventHeaders.EVENT_ID, eventId);
        raw.pipeInput(new TestRecord<>(project, BODY, headers, eventTime));
    }

    @Test
    void aRetriedEventGoesToHistoryOnceWithoutTheRawHeaders() {
        send("p1", "a", MINUTE);
        send("p1", "a", MINUTE.plusSeconds(1));
        List<TestRecord<String, byte[]>> written = history.readRecordsToList();
        assertEquals(1, written.size());
        assertEquals(0, written.get(0).headers().toArray().length);
    }

    @Test
    void historyGetsTheRawValueCutToTheProcessorsHistoryRecordSize() {
        send("p1", "a", MINUTE);
        assertArrayEquals(Arrays.copyOf(BODY, 8), history.readValue());
    }

    @Test
    void rawRecordsFromTheEndOffsetsOnAreLeftOut() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "shape-test-ends");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // not the shared /tmp/kafka-streams: builds may run side by side
        try (TopologyTestDriver bounded = new TopologyTestDriver(
                ProcessorShapeTopology.build("raw", "history", "counts", Duration.ofHours(1), 8, Map.of(0, 1L)), props)) {
            raw = bounded.createInputTopic("raw", Serdes.String().serializer(), Serdes.ByteArray().serializer());
            send("p1", "a", MINUTE);
            send("p1", "b", MINUTE); // offset 1 of partition 0: published after the backlog
            assertEquals(1, bounded.createOutputTopic("history", Serdes.String().deserializer(),
                    Serdes.ByteArray().deserializer()).readRecordsToList().size());
        }
    }

    @Test
    void theCountsCrossARepartitionTopicAsTheProcessorsDo() {
        String described = ProcessorShapeTopology.build("raw", "history", "counts", Duration.ofHours(1), 8, Map.of()).describe().toString();
        assertTrue(described.contains("Sink: KSTREAM-SINK-") && described.contains("(topic: shape-by-project-repartition)"), described);
    }

    @Test
    void eventsAreCountedOncePerProjectAndMinute() {
        send("p1", "a", MINUTE);
        send("p1", "a", MINUTE.plusSeconds(1));
        send("p1", "b", MINUTE.plusSeconds(2));
        send("p2", "a", MINUTE.plusSeconds(3));
        send("p1", "c", MINUTE.plusSeconds(61));
        long start = MINUTE.toEpochMilli();
        assertEquals(Map.of("p1/" + start, 2L, "p2/" + start, 1L, "p1/" + (start + 60_000), 1L), counts.readKeyValuesToMap());
    }
}
