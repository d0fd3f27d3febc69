package io.sluice.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.events.EventHeaders;

class ProcessorTopologyTest {
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant MINUTE = Instant.parse("2026-11-22T10:15:00Z");

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> transactions;
    private TestInputTopic<String, byte[]> errors;
    private TestOutputTopic<String, TrafficRow> traffic;
    private TestOutputTopic<String, TransactionFact> history;
    private TestOutputTopic<String, ErrorRow> errorCounts;
    private TestOutputTopic<String, byte[]> deadLetters;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "topology-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0); // every update visible at once
        driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24)), props);
        transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(), new ByteArraySerializer());
        errors = driver.createInputTopic(TOPICS.errors(), new StringSerializer(), new ByteArraySerializer());
        traffic = driver.createOutputTopic(TOPICS.traffic(), new StringDeserializer(), JsonSerde.of(TrafficRow.class).deserializer());
        history = driver.createOutputTopic(TOPICS.history(), new StringDeserializer(), JsonSerde.of(TransactionFact.class).deserializer());
        errorCounts = driver.createOutputTopic(TOPICS.errors1m(), new StringDeserializer(), JsonSerde.of(ErrorRow.class).deserializer());
        deadLetters = driver.createOutputTopic(TOPICS.deadLetters(), new StringDeserializer(), Serdes.ByteArray().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void trafficIsCountedPerMinuteByStatusClass() {
        sendTransaction("a1", MINUTE.plusSeconds(1), "200");
        sendTransaction("a2", MINUTE.plusSeconds(2), "201");
        sendTransaction("a3", MINUTE.plusSeconds(3), "404");
        sendTransaction("a4", MINUTE.plusSeconds(4), "503");
        sendTransaction("a5", MINUTE.plusSeconds(5), null);
        TrafficRow row = latest(traffic.readKeyValuesToMap());
        assertEquals(new TrafficRow("shop", "production", MINUTE.getEpochSecond(), 5, 0, 2, 0, 1, 1, 1, 5), row);
    }

    @Test
    void aRetryWithTheSameEventIdIsCountedOnceAndStoredOnce() {
        sendTransaction("same", MINUTE.plusSeconds(1), "200");
        sendTransaction("same", MINUTE.plusSeconds(30), "200"); // the client's retry, received later
        assertEquals(1, history.readValuesToList().size());
        assertEquals(1, latest(traffic.readKeyValuesToMap()).requests());
    }

    @Test
    void aLateEventIsCountedInItsOwnMinute() {
        sendTransaction("now", MINUTE.plus(Duration.ofHours(3)), "200");
        sendTransaction("late", MINUTE.plusSeconds(10), "500"); // three hours late, within the horizon
        Map<String, TrafficRow> rows = traffic.readKeyValuesToMap();
        TrafficRow lateMinute = rows.get("shop/production/" + MINUTE.getEpochSecond());
        assertEquals(1, lateMinute.requests());
        assertEquals(1, lateMinute.status5xx());
    }

    @Test
    void anUnusableRecordGoesToTheDeadLettersWithItsReasonAndTheRestFlows() {
        transactions.pipeInput(new TestRecord<>("shop", "not json".getBytes(StandardCharsets.UTF_8), headers("bad", MINUTE), MINUTE));
        sendTransaction("good", MINUTE.plusSeconds(1), "200");
        List<TestRecord<String, byte[]>> dead = deadLetters.readRecordsToList();
        assertEquals(1, dead.size());
        assertEquals("not json", new String(dead.get(0).value(), StandardCharsets.UTF_8));
        String reason = EventHeaders.get(dead.get(0).headers(), ToDeadLetter.REASON);
        assertEquals(true, reason.startsWith("value is not valid JSON"), reason);
        assertEquals(1, latest(traffic.readKeyValuesToMap()).requests());
    }

    @Test
    void aDeadLetterKeepsTheGatewaysHeaders() {
        transactions.pipeInput(new TestRecord<>("shop", "not json".getBytes(StandardCharsets.UTF_8), headers("bad", MINUTE), MINUTE));
        assertEquals("bad", EventHeaders.get(deadLetters.readRecordsToList().get(0).headers(), EventHeaders.EVENT_ID));
    }

    @Test
    void historyRecordsCarryTheFactNotTheRawHeaders() {
        sendTransaction("e1", MINUTE.plusSeconds(1), "200");
        TestRecord<String, TransactionFact> stored = history.readRecord();
        assertEquals("e1", stored.value().eventId());
        assertEquals(0, stored.headers().toArray().length);
    }

    @Test
    void errorsAreCountedPerExceptionTypeAndStoredWithTheirTopFrame() {
        sendError("e1", "ValueError", MINUTE.plusSeconds(1));
        sendError("e2", "ValueError", MINUTE.plusSeconds(2));
        sendError("e2", "ValueError", MINUTE.plusSeconds(3)); // retry
        sendError("e3", "KeyError", MINUTE.plusSeconds(4));
        Map<String, ErrorRow> rows = errorCounts.readKeyValuesToMap();
        assertEquals(2, rows.get("shop/production/" + MINUTE.getEpochSecond() + "/ValueError").errors());
        assertEquals(1, rows.get("shop/production/" + MINUTE.getEpochSecond() + "/KeyError").errors());
        ErrorFact stored = driver.createOutputTopic(TOPICS.errorHistory(), new StringDeserializer(),
                JsonSerde.of(ErrorFact.class).deserializer()).readValuesToList().get(0);
        assertEquals("charge (pay/charge.py:88)", stored.topFrame());
        assertEquals("boom", stored.exceptionValue());
    }

    private void sendTransaction(String eventId, Instant eventTime, String status) {
        String tags = status == null ? "" : ", \"tags\": {\"http.status_code\": \"" + status + "\"}";
        String json = "{\"transaction\": \"GET /users/42\", \"environment\": \"production\"" + tags + "}";
        transactions.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), headers(eventId, eventTime), eventTime));
    }

    private void sendError(String eventId, String type, Instant eventTime) {
        String json = "{\"environment\": \"production\", \"exception\": {\"values\": [{\"type\": \"" + type + "\", \"value\": \"boom\","
                + " \"stacktrace\": {\"frames\": [{\"function\": \"main\", \"filename\": \"app.py\", \"lineno\": 1},"
                + " {\"function\": \"charge\", \"filename\": \"pay/charge.py\", \"lineno\": 88}]}}]}}";
        errors.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), headers(eventId, eventTime), eventTime));
    }

    private static RecordHeaders headers(String eventId, Instant eventTime) {
        RecordHeaders headers = new RecordHeaders();
        EventHeaders.put(headers, EventHeaders.EVENT_ID, eventId);
        EventHeaders.put(headers, EventHeaders.PROJECT, "shop");
        EventHeaders.put(headers, EventHeaders.EVENT_TIME, Long.toString(eventTime.toEpochMilli()));
        EventHeaders.put(headers, EventHeaders.RECEIVED_AT, Long.toString(eventTime.toEpochMilli()));
        return headers;
    }

    @Test
    void aHigherGenerationOutranksAnyCountOfALowerOne() {
        assertEquals(true, Generations.version(1, 1) > Generations.version(0, 1_000_000_000L));
        assertEquals(5, Generations.version(0, 5));
    }

    private static TrafficRow latest(Map<String, TrafficRow> rows) {
        assertEquals(1, rows.size(), rows.toString());
        return new HashMap<>(rows).values().iterator().next();
    }
}
