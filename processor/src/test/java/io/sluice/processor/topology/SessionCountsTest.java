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

import io.sluice.config.Aggregate;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.rows.SessionHourRow;

/** How sessions_1h counts Sentry's session updates and aggregates (Relay's rules), without Kafka. */
class SessionCountsTest {
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant HOUR = Instant.parse("2026-11-22T10:00:00Z");
    private static final String STARTED = "2026-11-22T10:15:00.000Z";
    private static final String SID = "0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11";
    private static final String OTHER_SID = "8d3b7c1e-2f4a-4d6b-8e9f-0a1b2c3d4e5f";

    @TempDir
    Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> sessions;
    private int records;

    @BeforeEach
    void start() {
        driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24)), properties());
        sessions = driver.createInputTopic(TOPICS.sessions(), new StringSerializer(), new ByteArraySerializer());
    }

    private Properties properties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "sessions-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return props;
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void anInitUpdateCountsOneStartedSession() {
        update(SID, "{\"init\": true, \"status\": \"ok\", \"errors\": 0");
        assertEquals(List.of(1L, 0L, 0L, 0L, 0L), counts(last()));
    }

    @Test
    void aSessionIsErroredOnceHoweverManyUpdatesReportErrors() {
        update(SID, "{\"init\": true, \"status\": \"ok\", \"errors\": 0");
        update(SID, "{\"status\": \"ok\", \"errors\": 1, \"seq\": 2");
        update(SID, "{\"status\": \"ok\", \"errors\": 2, \"seq\": 3");
        update(SID, "{\"status\": \"errored\", \"errors\": 3, \"seq\": 4");
        assertEquals(List.of(1L, 1L, 0L, 0L, 0L), counts(last()));
    }

    @Test
    void aCrashedSessionCountsCrashedAndErrored() {
        update(SID, "{\"init\": true, \"status\": \"ok\", \"errors\": 0");
        update(SID, "{\"status\": \"crashed\", \"errors\": 1, \"seq\": 2");
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L), counts(last()));
    }

    @Test
    void anAbnormalSessionCountsAbnormalAndErrored() {
        update(SID, "{\"init\": true, \"status\": \"abnormal\", \"errors\": 0");
        assertEquals(List.of(1L, 1L, 0L, 1L, 0L), counts(last()));
    }

    @Test
    void aSessionThatExitsWithoutAnErrorCountsExited() {
        update(SID, "{\"init\": true, \"status\": \"ok\", \"errors\": 0");
        update(SID, "{\"status\": \"exited\", \"errors\": 0, \"seq\": 2");
        update(OTHER_SID, "{\"init\": true, \"status\": \"exited\", \"errors\": 2");
        assertEquals(List.of(2L, 1L, 0L, 0L, 1L), counts(last()), "the session that exited after errors is errored, not exited");
    }

    @Test
    void aRetriedUpdateCountsOnce() {
        String update = "{\"init\": true, \"status\": \"crashed\", \"errors\": 1";
        update(SID, update);
        update(SID, update);
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L), counts(last()));
    }

    @Test
    void aSessionCountsInTheHourItStartedWhenItsUpdateComesLater() {
        update(SID, "{\"init\": true, \"status\": \"ok\", \"errors\": 0");
        update(SID, "{\"status\": \"crashed\", \"errors\": 1, \"timestamp\": \"2026-11-22T12:30:00Z\"", HOUR.plus(Duration.ofMinutes(150)));
        SessionHourRow row = last();
        assertEquals(HOUR.getEpochSecond(), row.start().epochSecond());
        assertEquals(List.of(1L, 1L, 1L, 0L, 0L), counts(row));
    }

    @Test
    void anAggregateCountsAsGivenEachBucketInItsHourWithCrashedAndAbnormalErrored() {
        String json = "{\"attrs\": {\"release\": \"shop@1.2.0\", \"environment\": \"production\"}, \"aggregates\": ["
                + "{\"started\": \"2026-11-22T10:59:00Z\", \"exited\": 50, \"errored\": 3, \"abnormal\": 1, \"crashed\": 2},"
                + "{\"started\": \"2026-11-22T11:00:00Z\", \"exited\": 7}]}";
        pipe("a9f3c2d1e0b4a5968778695a4b3c2d1e", json, HOUR.plus(Duration.ofMinutes(61)));
        List<SessionHourRow> rows = rows();
        SessionHourRow ten = rows.stream().filter(row -> row.start().epochSecond() == HOUR.getEpochSecond()).reduce((a, b) -> b).orElseThrow();
        SessionHourRow eleven = rows.stream().filter(row -> row.start().epochSecond() == HOUR.getEpochSecond() + 3600).reduce((a, b) -> b).orElseThrow();
        assertEquals(List.of(56L, 6L, 2L, 1L, 50L), counts(ten));
        assertEquals(List.of(7L, 0L, 0L, 0L, 7L), counts(eleven));
        assertEquals("shop@1.2.0", ten.release());
        assertEquals("production", ten.environment());
    }

    @Test
    void aRetriedAggregateCountsOnce() {
        String json = "{\"attrs\": {\"release\": \"shop@1.2.0\"}, \"aggregates\": [{\"started\": \"" + STARTED + "\", \"exited\": 4, \"crashed\": 1}]}";
        pipe("a9f3c2d1e0b4a5968778695a4b3c2d1e", json, HOUR.plus(Duration.ofMinutes(20)));
        pipe("a9f3c2d1e0b4a5968778695a4b3c2d1e", json, HOUR.plus(Duration.ofMinutes(21)));
        assertEquals(List.of(5L, 1L, 1L, 0L, 4L), counts(last()));
    }

    @Test
    void releasesAndEnvironmentsAreRowsOfTheirOwn() {
        update(SID, "{\"init\": true, \"status\": \"ok\"");
        pipe(OTHER_SID.replace("-", ""), "{\"sid\": \"" + OTHER_SID + "\", \"init\": true, \"started\": \"" + STARTED
                + "\", \"attrs\": {\"release\": \"shop@1.3.0\", \"environment\": \"production\"}}", HOUR.plus(Duration.ofMinutes(16)));
        List<SessionHourRow> rows = rows();
        assertEquals(List.of("shop@1.2.0", "shop@1.3.0"), rows.stream().map(SessionHourRow::release).toList());
        assertEquals(List.of(1L, 1L), rows.stream().map(SessionHourRow::started).toList());
    }

    @Test
    void releasesBeyondTheProjectsLimitCountAsOther() {
        driver.close();
        driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24), 0, ProcessorTopology.DEFAULT_LATE_MARGIN,
                new DeadLetterCounts(), new RecordsReadFromJson(), new FilterMemory(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES),
                CardinalityLimits.of(100, 100, 100, 2)), properties());
        sessions = driver.createInputTopic(TOPICS.sessions(), new StringSerializer(), new ByteArraySerializer());
        String[] sids = {SID, OTHER_SID, "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d", "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"};
        for (int i = 0; i < sids.length; i++) {
            pipe(sids[i].replace("-", ""), "{\"sid\": \"" + sids[i] + "\", \"init\": true, \"started\": \"" + STARTED
                    + "\", \"attrs\": {\"release\": \"r" + i + "\", \"environment\": \"production\"}}", HOUR.plus(Duration.ofMinutes(16 + i)));
        }
        Map<String, Long> started = new java.util.TreeMap<>();
        rows().forEach(row -> started.put(row.release(), row.started()));
        assertEquals(Map.of("r0", 1L, "r1", 1L, "<other>", 2L), started);
    }

    @Test
    void aReleaseWithALoneSurrogateBeyondItsColumnIsCutAndMadeValidBeforeItIsCounted() {
        String release = "\\ud800" + "r".repeat(300);
        pipe(SID.replace("-", ""), "{\"sid\": \"" + SID + "\", \"init\": true, \"started\": \"" + STARTED
                + "\", \"attrs\": {\"release\": \"" + release + "\", \"environment\": \"production\"}}", HOUR.plus(Duration.ofMinutes(16)));
        SessionHourRow row = last();
        assertEquals("\ufffd" + "r".repeat(199), row.release());
        assertEquals(1L, row.started());
    }

    private void update(String sid, String fields) {
        update(sid, fields, HOUR.plus(Duration.ofMinutes(15 + records)));
    }

    private void update(String sid, String fields, Instant receivedAt) {
        String json = fields + ", \"sid\": \"" + sid + "\", \"started\": \"" + STARTED + "\", \"attrs\": {\"release\": \"shop@1.2.0\","
                + " \"environment\": \"production\"}}";
        pipe(sid.replace("-", ""), json, receivedAt);
    }

    private void pipe(String itemId, String json, Instant receivedAt) {
        records++;
        sessions.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8),
                RequestAggregatesTest.headers("shop", itemId, receivedAt), Instant.parse(STARTED)));
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
    }

    private List<SessionHourRow> rows() {
        return driver.createOutputTopic(TOPICS.of(Aggregate.SESSIONS_1H), new StringDeserializer(),
                JsonSerde.of(SessionHourRow.class).deserializer()).readValuesToList();
    }

    private SessionHourRow last() {
        List<SessionHourRow> rows = rows();
        return rows.get(rows.size() - 1);
    }

    private static List<Long> counts(SessionHourRow row) {
        return List.of(row.started(), row.errored(), row.crashed(), row.abnormal(), row.exited());
    }
}
