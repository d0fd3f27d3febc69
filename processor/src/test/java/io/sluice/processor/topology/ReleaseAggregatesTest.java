package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.outcomes.OutcomeRow;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.TrafficRow;
import io.sluice.processor.rows.TransactionFact;

/** Requests counted per release, a project's releases bounded per day as its environments are, and each release a series. */
class ReleaseAggregatesTest {
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant MINUTE = Instant.parse("2026-11-22T10:15:00Z");
    private static final String LIMITED = "shop " + MINUTE.getEpochSecond() + " cardinality_limited:";
    private static final String COUNTER = " processor:" + TOPICS.transactions() + ":0";

    @TempDir
    Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> transactions;
    private CardinalityLimits limits;
    private int sent;

    private void start(int routesPerDay, int releasesPerDay) {
        limits = CardinalityLimits.of(routesPerDay, CardinalityLimits.DEFAULT_ENVIRONMENTS_PER_DAY,
                CardinalityLimits.DEFAULT_EXCEPTION_TYPES_PER_DAY, releasesPerDay);
        driver = CardinalityLimitTest.driver(stateDir, limits);
        transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void requestsAreCountedPerReleaseInTheMinuteAndTheHour() {
        start(100, 100);
        for (String release : new String[] {"shop@2.4.1", "shop@2.4.1", "shop@2.4.1", "shop@2.5.0", "shop@2.5.0", null}) {
            send("GET /a", release);
        }
        Map<String, Long> expected = Map.of("shop@2.4.1", 3L, "shop@2.5.0", 2L, "", 1L);
        assertEquals(expected, requestsBy(latest(TOPICS.requests1m(), RequestRow.class, RequestRow::topicKey), RequestRow::release,
                RequestRow::requests));
        assertEquals(expected, requestsBy(latest(TOPICS.requests1h(), RequestRow.class, RequestRow::topicKey),
                RequestRow::release, RequestRow::requests));
        assertEquals(Map.of("production", 6L), requestsBy(latest(TOPICS.traffic(), TrafficRow.class, TrafficRow::topicKey),
                TrafficRow::environment, TrafficRow::requests), "traffic is not split by release");
    }

    @Test
    void releasesBeyondTheLimitCountAsOtherAndInOutcomes() {
        start(100, 2);
        for (String release : List.of("r1", "r2", "r3", "r4", "r1")) {
            send("GET /a", release);
        }
        assertEquals(Map.of("r1", 2L, "r2", 1L, "<other>", 2L), requestsBy(latest(TOPICS.requests1h(), RequestRow.class,
                RequestRow::topicKey), RequestRow::release, RequestRow::requests));
        assertEquals(Map.of(LIMITED + "release" + COUNTER, 2L), outcomes());
        assertEquals(2, limits.collapsed().count(LimitedName.RELEASE));
    }

    @Test
    void theHistoryKeepsTheReleaseAsSent() {
        start(100, 1);
        send("GET /a", "r1");
        send("GET /a", "r2");
        List<String> releases = driver.createOutputTopic(TOPICS.history(), new StringDeserializer(),
                JsonSerde.of(TransactionFact.class).deserializer()).readValuesToList().stream().map(TransactionFact::release).toList();
        assertEquals(List.of("r1", "r2"), releases);
    }

    @Test
    void eachReleaseIsASeriesSoOneRouteInFifteenReleasesMakesTenSeriesAndOther() {
        start(1, 100); // one route a day, so ten series
        for (int release = 0; release < 15; release++) {
            send("GET /a", "r" + release);
        }
        Map<String, Long> expected = new HashMap<>();
        for (int release = 0; release < 10; release++) {
            expected.put("r" + release + " GET /a production", 1L);
        }
        // Beyond the series limit with no room for their <other> route's series either: every name the client chose is <other>.
        expected.put("<other> <other> <other>", 5L);
        assertEquals(expected, requestsBy(latest(TOPICS.requests1h(), RequestRow.class, RequestRow::topicKey),
                row -> row.release() + ' ' + row.route() + ' ' + row.environment(), RequestRow::requests));
        assertEquals(Map.of(LIMITED + "route" + COUNTER, 5L), outcomes());
    }

    @Test
    void aRequestWithoutAReleaseBeyondTheSeriesLimitKeepsTheEmptyRelease() {
        start(1, 100);
        for (int status = 200; status < 215; status++) {
            send("GET /a", null, status);
        }
        assertEquals(Map.of("", 15L), requestsBy(latest(TOPICS.requests1h(), RequestRow.class, RequestRow::topicKey),
                RequestRow::release, RequestRow::requests));
    }

    private Map<String, Long> outcomes() {
        Map<String, Long> latest = new HashMap<>();
        driver.createOutputTopic(TOPICS.outcomes(), new StringDeserializer(), JsonSerde.of(OutcomeRow.class).deserializer())
                .readValuesToList().forEach(r -> latest.put(r.project() + ' ' + r.minute() + ' ' + r.outcome() + ' ' + r.gateway(), r.events()));
        return latest;
    }

    /** The latest row of each key of an aggregate's topic (read once: reading takes its records). */
    private <R> List<R> latest(String topic, Class<R> type, Function<R, String> key) {
        Map<String, R> latest = new HashMap<>();
        driver.createOutputTopic(topic, new StringDeserializer(), JsonSerde.of(type).deserializer()).readValuesToList()
                .forEach(row -> latest.put(key.apply(row), row));
        return List.copyOf(latest.values());
    }

    private static <R> Map<String, Long> requestsBy(List<R> rows, Function<R, String> field, Function<R, Long> requests) {
        Map<String, Long> sums = new HashMap<>();
        rows.forEach(row -> sums.merge(field.apply(row), requests.apply(row), Long::sum));
        return sums;
    }

    private void send(String route, String release) {
        send(route, release, 200);
    }

    private void send(String route, String release, int status) {
        String json = "{\"transaction\": " + RequestAggregatesTest.quoted(route) + ", \"transaction_info\": {\"source\": \"route\"}, "
                + "\"environment\": \"production\", \"tags\": {\"http.status_code\": \"" + status + "\"}"
                + (release == null ? "" : ", \"release\": " + RequestAggregatesTest.quoted(release)) + "}";
        String eventId = "e" + sent++;
        transactions.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8),
                RequestAggregatesTest.headers("shop", eventId, MINUTE), MINUTE));
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL); // the raw task's sums reach the counts
    }
}
