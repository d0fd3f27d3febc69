package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.config.Aggregate.Window;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.events.EventHeaders;
import io.sluice.events.FieldsHeader;
import io.sluice.events.FieldsHeader.Unread;
import io.sluice.events.TransactionFields;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.RecordsReadFromJson.Kind;
import io.sluice.processor.rows.Columns;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.ErrorRow;
import io.sluice.processor.rows.Generations;
import io.sluice.processor.rows.TrafficRow;
import io.sluice.processor.rows.TransactionFact;
import io.sluice.processor.rows.WindowStart;

class ProcessorTopologyTest {
    @TempDir
    Path stateDir;
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant MINUTE = Instant.parse("2026-11-22T10:15:00Z");
    private static final String TRANSACTION_JSON = "{\"transaction\": \"GET /users/42\", \"environment\": \"production\"}";

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> transactions;
    private TestInputTopic<String, byte[]> errors;
    private TestOutputTopic<String, TrafficRow> traffic;
    private TestOutputTopic<String, TransactionFact> history;
    private TestOutputTopic<String, ErrorRow> errorCounts;
    private TestOutputTopic<String, byte[]> deadLetters;
    private DeadLetterCounts counts;
    private RecordsReadFromJson readFromJson;

    @BeforeEach
    void start() {
        start(ProcessorTopology.DEFAULT_LATE_MARGIN);
    }

    private void start(Duration lateMargin) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "topology-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // not the shared /tmp/kafka-streams: builds may run side by side
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0); // every update visible at once
        counts = new DeadLetterCounts();
        readFromJson = new RecordsReadFromJson();
        driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24), 0, lateMargin, counts, readFromJson,
                new FilterMemory(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES)), props);
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
        assertEquals(new TrafficRow("shop", "production", new WindowStart(Window.MINUTE, MINUTE.getEpochSecond()), 5, 0, 2, 0, 1, 1, 1, 5), row);
    }

    @Test
    void theRawTasksSumsReachTheCountsAtTheFlushAsOneRecordPerKeyAndMinute() {
        for (int i = 0; i < 3; i++) {
            transactions.pipeInput(new TestRecord<>("shop", TRANSACTION_200, headers("e" + i, MINUTE.plusSeconds(i)), MINUTE.plusSeconds(i)));
        }
        assertEquals(List.of(), traffic.readValuesToList(), "nothing counted before the flush");
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
        List<TrafficRow> rows = traffic.readValuesToList();
        assertEquals(1, rows.size(), "one sum of the three, not a row per event");
        assertEquals(3, rows.get(0).status2xx());
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
        pipe(transactions, new TestRecord<>("shop", "not json".getBytes(StandardCharsets.UTF_8), headers("bad", MINUTE), MINUTE));
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
        pipe(transactions, new TestRecord<>("shop", "not json".getBytes(StandardCharsets.UTF_8), headers("bad", MINUTE), MINUTE));
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

    private static final byte[] TRANSACTION_200 = "{\"transaction\": \"GET /\", \"environment\": \"production\", \"tags\": {\"http.status_code\": 200}}"
            .getBytes(StandardCharsets.UTF_8);

    private void sendTransaction(String eventId, Instant eventTime, String status) {
        String tags = status == null ? "" : ", \"tags\": {\"http.status_code\": \"" + status + "\"}";
        String json = "{\"transaction\": \"GET /users/42\", \"environment\": \"production\"" + tags + "}";
        pipe(transactions, new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), headers(eventId, eventTime), eventTime));
    }

    private void sendError(String eventId, String type, Instant eventTime) {
        String json = "{\"environment\": \"production\", \"exception\": {\"values\": [{\"type\": \"" + type + "\", \"value\": \"boom\","
                + " \"stacktrace\": {\"frames\": [{\"function\": \"main\", \"filename\": \"app.py\", \"lineno\": 1},"
                + " {\"function\": \"charge\", \"filename\": \"pay/charge.py\", \"lineno\": 88}]}}]}}";
        pipe(errors, new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), headers(eventId, eventTime), eventTime));
    }

    private static RecordHeaders headers(String eventId, Instant eventTime) {
        return headers(eventId, eventTime, eventTime);
    }

    private static RecordHeaders headers(String eventId, Instant eventTime, Instant receivedAt) {
        RecordHeaders headers = new RecordHeaders();
        EventHeaders.put(headers, EventHeaders.EVENT_ID, eventId);
        EventHeaders.put(headers, EventHeaders.PROJECT, "shop");
        EventHeaders.put(headers, EventHeaders.EVENT_TIME, Long.toString(eventTime.toEpochMilli()));
        EventHeaders.put(headers, EventHeaders.RECEIVED_AT, Long.toString(receivedAt.toEpochMilli()));
        return headers;
    }

    private void sendTransactionJson(String eventId, Instant eventTime, Instant receivedAt, String json) {
        pipe(transactions, new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8),
                headers(eventId, eventTime, receivedAt), eventTime));
    }

    private static long requests(Map<String, TrafficRow> rows, Instant minute) {
        TrafficRow row = rows.get("shop/production/" + minute.truncatedTo(ChronoUnit.MINUTES).getEpochSecond());
        return row == null ? 0 : row.requests();
    }

    @Test
    void loneSurrogateInHistoryRowIsStoredAsReplacementCharacter() throws Exception {
        TestOutputTopic<String, byte[]> rawHistory = driver.createOutputTopic(TOPICS.history(), new StringDeserializer(),
                Serdes.ByteArray().deserializer());
        sendTransactionJson("s1", MINUTE, MINUTE, "{\"transaction\": \"GET /\\ud800x\", \"environment\": \"production\"}");
        byte[] row = rawHistory.readValue();
        String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(row)).toString(); // throws unless valid UTF-8
        assertEquals("GET /\uFFFDx", JsonSerde.MAPPER.readTree(text).get("transaction").textValue());
    }

    @Test
    void oversizedFieldsAreCutToTheirColumnLimitsAtACodePointBoundary() {
        String url = "https://shop.example/" + "a".repeat(Columns.URL - 22) + "\uD83D\uDE00" + "b".repeat(600_000);
        sendTransactionJson("big", MINUTE, MINUTE, "{\"transaction\": \"GET /" + "t".repeat(600_000) + "\", "
                + "\"environment\": \"production\", \"request\": {\"url\": \"" + url + "\"}}");
        TransactionFact row = history.readValue();
        assertEquals(Columns.TRANSACTION, row.transaction().length());
        assertEquals(url.substring(0, Columns.URL - 1), row.url()); // the emoji's pair would not fit whole
        assertEquals(Columns.PATH, row.path().length());
        assertEquals(1, latest(traffic.readKeyValuesToMap()).requests());
    }

    @Test
    void anOversizedErrorPayloadIsReplacedByANoteAndItsMessageCut() throws Exception {
        String json = "{\"environment\": \"production\", \"exception\": {\"values\": [{\"type\": \"Huge\", \"value\": \""
                + "m".repeat(600_000) + "\"}]}}";
        pipe(errors, new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), headers("e1", MINUTE), MINUTE));
        ErrorFact stored = driver.createOutputTopic(TOPICS.errorHistory(), new StringDeserializer(),
                JsonSerde.of(ErrorFact.class).deserializer()).readValue();
        assertEquals(Columns.EXCEPTION_VALUE, stored.exceptionValue().length());
        assertEquals(Columns.omittedPayload(json.length()), stored.payload());
        assertEquals(json.length(), JsonSerde.MAPPER.readTree(stored.payload()).at("/sluice_payload_omitted/bytes").asInt());
    }

    @Test
    void aRetryWithinTheHorizonOfItsFirstReceiptIsCountedOnceWhereverItsEventTimeLands() {
        Instant now = MINUTE.plusSeconds(30);
        sendTransactionJson("old", now.minus(Duration.ofHours(23)), now, TRANSACTION_JSON);
        Instant later = now.plus(Duration.ofHours(2));
        sendTransactionJson("other", later, later, TRANSACTION_JSON); // ordinary traffic meanwhile
        // The retry's event time is now 25 h old: the gateway re-timed it to its receive time.
        sendTransactionJson("old", later.plusSeconds(1), later.plusSeconds(1), TRANSACTION_JSON);
        assertEquals(List.of("old", "other"), history.readValuesToList().stream().map(TransactionFact::eventId).toList());
        Map<String, TrafficRow> rows = traffic.readKeyValuesToMap();
        assertEquals(1, requests(rows, now.minus(Duration.ofHours(23))));
        assertEquals(1, requests(rows, later));
    }

    @Test
    void anEventAtTheEdgeOfTheHorizonIsCountedAfterAFutureEventAdvancedStreamTime() {
        Instant now = MINUTE.plusSeconds(30);
        sendTransactionJson("future", now.plusSeconds(61), now, TRANSACTION_JSON); // 61 s ahead: another gateway's clock
        Instant edge = now.minus(Duration.ofHours(24)).plusSeconds(1);
        sendTransactionJson("edge", edge, now, TRANSACTION_JSON);
        assertEquals(1, requests(traffic.readKeyValuesToMap(), edge));
    }

    @Test
    void anUnparseableRecordTooLargeForADeadLetterGoesWithoutItsValueAndTheRestFlows() {
        RecordHeaders noEventId = headers("huge", MINUTE);
        noEventId.remove(EventHeaders.EVENT_ID);
        String huge = "{\"transaction\": \"" + "t".repeat(1024 * 1024) + "\", \"environment\": \"production\"}";
        pipe(transactions, new TestRecord<>("shop", huge.getBytes(StandardCharsets.UTF_8), noEventId, MINUTE));
        sendTransaction("good", MINUTE.plusSeconds(1), "200");

        TestRecord<String, byte[]> dead = deadLetters.readRecord();
        int size = dead.key().length() + (dead.value() == null ? 0 : dead.value().length);
        for (var header : dead.headers()) {
            size += header.key().length() + header.value().length;
        }
        assertEquals(true, size < JsonSerde.MAX_REQUEST_BYTES - 32 * 1024, "dead letter of " + size + " bytes");
        assertEquals(null, dead.value());
        assertEquals(huge.length() + " bytes, more than a dead letter carries (" + DeadLetterValues.MAX_VALUE_BYTES
                + "); the original stays at its source offset", EventHeaders.get(dead.headers(), DeadLetterValues.VALUE_OMITTED));
        assertEquals(TOPICS.transactions() + "/0@0", EventHeaders.get(dead.headers(), ToDeadLetter.SOURCE));
        assertEquals("header sluice.event_id is missing", EventHeaders.get(dead.headers(), ToDeadLetter.REASON));
        assertEquals(1, latest(traffic.readKeyValuesToMap()).requests());
    }

    @Test
    void unparseableRecordsAreCountedAsDeadLetters() {
        pipe(transactions, new TestRecord<>("shop", "not json".getBytes(StandardCharsets.UTF_8), headers("bad", MINUTE), MINUTE));
        pipe(errors, new TestRecord<>("shop", "[]".getBytes(StandardCharsets.UTF_8), headers("bad2", MINUTE), MINUTE));
        sendTransaction("good", MINUTE.plusSeconds(1), "200");
        assertEquals(2, counts.unparseableCount());
        assertEquals(0, counts.unproducibleCount());
    }

    @Test
    void recordsWithoutTheGatewaysFieldsAreCountedAsReadFromTheirJsonAndOnlyThey() throws Exception {
        // As an SDK sends it: the gateway sends no header for fields that would take more than the event's JSON.
        String json = "{\"event_id\": \"0123456789abcdef0123456789abcdef\", \"type\": \"transaction\", "
                + "\"transaction\": \"GET /users/42\", \"environment\": \"production\", \"start_timestamp\": 1795000000.1, "
                + "\"timestamp\": 1795000000.5, \"spans\": [], \"contexts\": {\"trace\": {\"trace_id\": "
                + "\"771a43a4192642f0b136d5159a501700\", \"span_id\": \"a0cfbde2bdff3adc\", \"op\": \"http.server\"}}}";
        byte[] fields = TransactionFields.of(new ObjectMapper().readTree(json)).toHeader(json.length());
        assertNotNull(fields);
        RecordHeaders withFields = headers("with", MINUTE);
        withFields.add(FieldsHeader.NAME, fields);
        pipe(transactions, new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), withFields, MINUTE));
        sendTransaction("without", MINUTE.plusSeconds(1), "200");
        sendError("e1", "ValueError", MINUTE.plusSeconds(2));
        assertEquals(2, history.readValuesToList().size());
        assertEquals(1, readFromJson.count(Kind.TRANSACTION, Unread.NO_HEADER));
        assertEquals(1, readFromJson.count(Kind.ERROR, Unread.NO_HEADER));
        assertEquals(0, readFromJson.count(Kind.TRANSACTION, Unread.OTHER_VERSION));
        assertEquals(0, readFromJson.count(Kind.TRANSACTION, Unread.UNREADABLE));
    }

    @Test
    void anEventAtTheHorizonEdgeIsCountedWhenStreamTimeRanHalfAnHourAhead() {
        Instant now = MINUTE.plusSeconds(30);
        // Another task, not behind as this one is, moved the repartition's stream time on.
        sendTransactionJson("ahead", now.plus(Duration.ofMinutes(30)), now.plus(Duration.ofMinutes(30)), TRANSACTION_JSON);
        Instant edge = now.minus(Duration.ofHours(24)).plusSeconds(1);
        sendTransactionJson("edge", edge, now, TRANSACTION_JSON);
        assertEquals(1, requests(traffic.readKeyValuesToMap(), edge));
    }

    @Test
    void anEventBeyondHorizonAndMarginIsDroppedAndTheDropCounted() {
        Instant now = MINUTE.plusSeconds(30);
        sendTransactionJson("now", now, now, TRANSACTION_JSON);
        Instant tooOld = now.minus(Duration.ofHours(24)).minus(ProcessorTopology.DEFAULT_LATE_MARGIN).minus(Duration.ofMinutes(2));
        sendTransactionJson("too-old", tooOld, now, TRANSACTION_JSON);
        assertEquals(0, requests(traffic.readKeyValuesToMap(), tooOld));
        // Once per minute aggregate that missed it: traffic_1m and requests_1m (its hour is still open).
        assertEquals(2, io.sluice.processor.ops.StreamsDrops.total(driver.metrics()));
    }

    @Test
    void aMinuteCountedBeforeTheBinaryStoreFormatKeepsCountingAfterTheUpgrade() {
        // What an upgraded instance finds in its traffic store, restored from the changelog the
        // former version wrote: the key's JSON and, after the record's timestamp, the counts' JSON.
        byte[] key = "{\"project\":\"shop\",\"environment\":\"production\"}".getBytes(StandardCharsets.UTF_8);
        byte[] counts = "{\"requests\":3,\"status1xx\":0,\"status2xx\":2,\"status3xx\":0,\"status4xx\":0,\"status5xx\":1,\"status_none\":0}"
                .getBytes(StandardCharsets.UTF_8);
        long timestamp = MINUTE.plusSeconds(20).toEpochMilli();
        byte[] stored = ByteBuffer.allocate(8 + counts.length).putLong(timestamp).put(counts).array();
        @SuppressWarnings("unchecked")
        WindowStore<Bytes, byte[]> bytes = (WindowStore<Bytes, byte[]>) ((WrappedStateStore<?, ?, ?>) (Object) driver.getTimestampedWindowStore("traffic-1m")).wrapped();
        bytes.put(Bytes.wrap(key), stored, MINUTE.toEpochMilli());

        sendTransaction("after-upgrade", MINUTE.plusSeconds(30), "404");
        assertEquals(new TrafficRow("shop", "production", new WindowStart(Window.MINUTE, MINUTE.getEpochSecond()), 4, 0, 2, 0, 1, 1, 0, 4),
                latest(traffic.readKeyValuesToMap()));
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

    /** One record in, and the wall clock on by a flush: the raw task's sums reach the counts (see {@link PartialCounts}). */
    private void pipe(TestInputTopic<String, byte[]> topic, TestRecord<String, byte[]> record) {
        topic.pipeInput(record);
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
    }
}
