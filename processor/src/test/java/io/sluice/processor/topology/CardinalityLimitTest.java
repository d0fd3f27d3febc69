package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.outcomes.OutcomeRow;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.rows.ErrorFact;
import io.sluice.processor.rows.ErrorHourRow;
import io.sluice.processor.rows.ErrorRow;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.TrafficRow;
import io.sluice.processor.rows.TransactionFact;

/** The per-project limits of routes, environments and exception types, as the aggregates and the outcomes count them. */
class CardinalityLimitTest {
    @TempDir
    Path stateDir;
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant MINUTE = Instant.parse("2026-11-22T10:15:00Z");
    private static final long MINUTE_SECONDS = MINUTE.getEpochSecond();
    private static final String TRANSACTION_COUNTER = "processor:" + TOPICS.transactions() + ":0";
    private static final String ERROR_COUNTER = "processor:" + TOPICS.errors() + ":0";

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> transactions;
    private TestInputTopic<String, byte[]> errors;
    private CardinalityLimits limits;

    private void start(int routesPerDay, int environmentsPerDay, int exceptionTypesPerDay) {
        limits = CardinalityLimits.of(routesPerDay, environmentsPerDay, exceptionTypesPerDay);
        driver = driver(stateDir, limits);
        transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(), new ByteArraySerializer());
        errors = driver.createInputTopic(TOPICS.errors(), new StringSerializer(), new ByteArraySerializer());
    }

    /** The whole topology with these limits, its state in {@code stateDir}. */
    static TopologyTestDriver driver(Path stateDir, CardinalityLimits limits) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "cardinality-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // not the shared /tmp/kafka-streams: builds may run side by side
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24), 0, ProcessorTopology.DEFAULT_LATE_MARGIN,
                new DeadLetterCounts(), new RecordsReadFromJson(), new FilterMemory(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES),
                limits), props);
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void routesBeyondTheLimitAreCountedInOutcomesPerProjectMinuteAndPartition() {
        start(2, 100, 100);
        for (int i = 0; i < 5; i++) {
            sendTransaction("t" + i, MINUTE.plusSeconds(i), "production", "GET /r" + (char) ('a' + i));
        }
        sendTransaction("late", MINUTE.plusSeconds(61), "production", "GET /z");
        sendError("e1", MINUTE, "production", "GET /a", "ValueError");
        sendError("e2", MINUTE.plusSeconds(1), "production", "GET /b", "ValueError");
        sendError("e3", MINUTE.plusSeconds(2), "production", "GET /c", "ValueError");
        assertEquals(Map.of(
                        "shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 3L,
                        "shop " + (MINUTE_SECONDS + 60) + " cardinality_limited:route " + TRANSACTION_COUNTER, 1L,
                        "shop " + MINUTE_SECONDS + " cardinality_limited:route " + ERROR_COUNTER, 1L),
                outcomes());
        assertEquals(5, limits.collapsed().count(LimitedName.ROUTE), "the metric counts transactions and errors alike");
    }

    @Test
    void routesAdmittedBeforeMoreWereRememberedThanMemoryKeepsStayAdmittedAndTheLimitHolds() {
        int routes = 2 * DailyNames.REMEMBERED + 10; // both generations of the memory turned over
        start(routes, 100, 100);
        for (int i = 0; i < routes; i++) {
            sendTransaction("t" + i, MINUTE.plusSeconds(i % 60), "production", "GET /r" + i);
        }
        sendTransaction("again", MINUTE.plusSeconds(1), "production", "GET /r0"); // forgotten in memory, admitted in the store
        sendTransaction("beyond", MINUTE.plusSeconds(2), "production", "GET /one-too-many");
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 1L), outcomes());
    }

    @Test
    void oneRouteSentWithEveryStatusCodeIsBoundedBySeriesNotOneRowPerEvent() {
        start(1, 100, 100); // one route a day, so ten series
        for (int status = 200; status < 240; status++) {
            sendRequest("s" + status, MINUTE, "http.server", "GET /a", status);
        }
        assertEquals(Map.of("GET /a", 10L, "<other>", 30L), requestsBy(requestHourRows(), RequestRow::route));
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 30L), outcomes());
    }

    @Test
    void oneRouteSentInEveryEnvironmentWithEveryStatusCodeIsBoundedBySeriesNotEnvironmentsTimesSeries() {
        start(1, 100, 100); // one route a day, so ten series, whatever their environments
        for (int environment = 0; environment < 100; environment++) {
            for (int status = 200; status < 210; status++) {
                sendRequest("s" + environment + "-" + status, MINUTE, "env-" + environment, "http.server", "GET /a", status);
            }
        }
        List<RequestRow> rows = requestHourRows();
        assertEquals(20, rows.size(), "ten series as sent, ten under <other> (one per status code)");
        assertEquals(Map.of("GET /a", 10L, "<other>", 990L), requestsBy(rows, RequestRow::route));
        assertEquals(Map.of("env-0", 10L, "<other>", 990L), requestsBy(rows, RequestRow::environment));
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 990L), outcomes());
    }

    @Test
    void anEventBeyondTheRouteLimitKeepsItsEnvironmentWhileTheSeriesLimitHasRoom() {
        start(1, 100, 100);
        sendRequest("a", MINUTE, "production", "http.server", "GET /a", 200);
        sendRequest("b", MINUTE, "staging", "http.server", "GET /b", 200);
        List<RequestRow> rows = requestHourRows();
        assertEquals(Map.of("production", 1L, "staging", 1L), requestsBy(rows, RequestRow::environment));
        assertEquals(Map.of("GET /a", 1L, "<other>", 1L), requestsBy(rows, RequestRow::route));
    }

    @Test
    void oneRouteSentInEveryEnvironmentWithEveryExceptionTypeIsBoundedBySeriesInErrorsByRoute() {
        start(1, 100, 100); // ten series of errors_1h, whatever their environments
        for (int environment = 0; environment < 10; environment++) {
            for (int type = 0; type < 10; type++) {
                sendError("e" + environment + "-" + type, MINUTE, "env-" + environment, "GET /a", "Error" + type);
            }
        }
        Map<String, ErrorHourRow> rows = latest(TOPICS.errors1h(), ErrorHourRow.class,
                row -> row.environment() + ' ' + row.route() + ' ' + row.exceptionType());
        // errors_1m's series limit sends the other 90 to type <other> first (one route: an errors_1h series is one of
        // errors_1m); their (environment, route, <other>) series find no room either, so they count under <other> throughout.
        assertEquals(11, rows.size(), "ten series as sent, one under <other>");
        Map<String, Long> byEnvironment = new HashMap<>();
        rows.values().forEach(row -> byEnvironment.merge(row.environment(), row.errors(), Long::sum));
        assertEquals(Map.of("env-0", 10L, "<other>", 90L), byEnvironment);
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + ERROR_COUNTER, 90L,
                "shop " + MINUTE_SECONDS + " cardinality_limited:exception_type " + ERROR_COUNTER, 90L), outcomes());
    }

    @Test
    void aNulInOpOrRouteCannotMakeTwoRoutesReadAsOne() {
        start(1, 100, 100);
        sendRequest("first", MINUTE, "a", "GET b\u0000GET /y", 200);
        sendRequest("second", MINUTE.plusSeconds(1), "a\u0000GET b", "GET /y", 200);
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 1L), outcomes());
    }

    @Test
    void anEnvironmentAndARouteWhoseTextsRunTogetherTheSameAreStillTwoSeries() {
        start(2, 100, 100); // twenty series
        for (int status = 200; status < 219; status++) {
            sendRequest("fill" + status, MINUTE, "production", "http.server", "11:http.server/y", status);
        }
        sendRequest("twentieth", MINUTE, "a", "http.server", "11:http.server/y", 200);
        // "a11:http.server" + "11:http.server" + "/y" runs together as "a" + "11:http.server" + "11:http.server/y"
        sendRequest("twenty-first", MINUTE, "a11:http.server", "http.server", "/y", 200);
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 1L), outcomes());
    }

    @Test
    void outcomeRowsAreAbsoluteCountsWhoseVersionIsTheCount() {
        start(1, 100, 100);
        sendTransaction("a", MINUTE, "production", "GET /a");
        sendTransaction("b", MINUTE.plusSeconds(1), "production", "GET /b");
        sendTransaction("c", MINUTE.plusSeconds(2), "production", "GET /c");
        List<OutcomeRow> rows = outcomeRows();
        assertEquals(List.of(1L, 2L), rows.stream().map(OutcomeRow::events).toList());
        assertEquals(List.of(1L, 2L), rows.stream().map(OutcomeRow::version).toList());
    }

    @Test
    void aRetriedCollapsedEventIsCountedOnceInOutcomes() {
        start(1, 100, 100);
        sendTransaction("a", MINUTE, "production", "GET /a");
        sendTransaction("b", MINUTE.plusSeconds(1), "production", "GET /b");
        sendTransaction("b", MINUTE.plusSeconds(1), "production", "GET /b");
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:route " + TRANSACTION_COUNTER, 1L), outcomes());
    }

    @Test
    void environmentsBeyondTheLimitCountAsOtherInTrafficAndRequestsAlike() {
        start(100, 2, 100);
        for (String environment : List.of("production", "staging", "host-1", "host-2", "production")) {
            sendTransaction(environment + Math.random(), MINUTE, environment, "GET /a");
        }
        Map<String, Long> traffic = latest(TOPICS.traffic(), TrafficRow.class, r -> r.environment()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().requests()));
        assertEquals(Map.of("production", 2L, "staging", 1L, "<other>", 2L), traffic);
        Map<String, Long> requests = latest(TOPICS.requests1h(), RequestRow.class, RequestRow::environment).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().requests()));
        assertEquals(traffic, requests);
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:environment " + TRANSACTION_COUNTER, 2L), outcomes());
        assertEquals(2, limits.collapsed().count(LimitedName.ENVIRONMENT));
    }

    @Test
    void theHistoryKeepsTheEnvironmentAsSent() {
        start(100, 1, 100);
        sendTransaction("a", MINUTE, "production", "GET /a");
        sendTransaction("b", MINUTE, "host-1", "GET /a");
        List<String> environments = driver.createOutputTopic(TOPICS.history(), new StringDeserializer(),
                JsonSerde.of(TransactionFact.class).deserializer()).readValuesToList().stream().map(TransactionFact::environment).toList();
        assertEquals(List.of("production", "host-1"), environments);
    }

    @Test
    void exceptionTypesBeyondTheLimitCountAsOtherInBothErrorAggregates() {
        start(100, 100, 2);
        for (String type : List.of("ValueError", "KeyError", "Generated$1", "Generated$2", "Generated$3")) {
            sendError(type, MINUTE, "production", "GET /a", type);
        }
        Map<String, Long> minutes = latest(TOPICS.errors1m(), ErrorRow.class, ErrorRow::exceptionType).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().errors()));
        assertEquals(Map.of("ValueError", 1L, "KeyError", 1L, "<other>", 3L), minutes);
        Map<String, Long> hours = latest(TOPICS.errors1h(), ErrorHourRow.class, ErrorHourRow::exceptionType).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().errors()));
        assertEquals(minutes, hours);
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:exception_type " + ERROR_COUNTER, 3L), outcomes());
        List<String> stored = driver.createOutputTopic(TOPICS.errorHistory(), new StringDeserializer(),
                JsonSerde.of(ErrorFact.class).deserializer()).readValuesToList().stream().map(ErrorFact::exceptionType).toList();
        assertEquals("Generated$3", stored.get(4), "the history keeps the type as sent");
    }

    @Test
    void anErrorBeyondBothLimitsIsCountedUnderEachName() {
        start(100, 1, 1);
        sendError("e1", MINUTE, "production", "GET /a", "ValueError");
        sendError("e2", MINUTE, "host-1", "GET /a", "KeyError");
        Map<String, Long> minutes = latest(TOPICS.errors1m(), ErrorRow.class, r -> r.environment() + " " + r.exceptionType())
                .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().errors()));
        assertEquals(Map.of("production ValueError", 1L, "<other> <other>", 1L), minutes);
        assertEquals(Map.of("shop " + MINUTE_SECONDS + " cardinality_limited:environment " + ERROR_COUNTER, 1L,
                "shop " + MINUTE_SECONDS + " cardinality_limited:exception_type " + ERROR_COUNTER, 1L), outcomes());
    }

    @Test
    void errorsInEveryEnvironmentWithEveryExceptionTypeMakeAtMostSeriesPlusEnvironmentsErrorsPerMinuteKeys() {
        start(1, 4, 100); // ten series of errors_1m a day, four environments
        for (int type = 0; type < 10; type++) {
            for (int environment = 0; environment < 6; environment++) {
                sendError("e" + environment + "-" + type, MINUTE, "env-" + environment, "GET /a", "Error" + type);
            }
        }
        Map<String, ErrorRow> rows = latest(TOPICS.errors1m(), ErrorRow.class, row -> row.environment() + ' ' + row.exceptionType());
        assertEquals(15, rows.size(), "ten series as sent, then one <other> type in each of the 4 environments and in <other>");
        Map<String, Long> byType = new HashMap<>();
        rows.values().forEach(row -> byType.merge(row.exceptionType(), row.errors(), Long::sum));
        assertEquals(Map.of("Error0", 6L, "Error1", 6L, "<other>", 48L), byType);
        assertEquals(48L, outcomes().get("shop " + MINUTE_SECONDS + " cardinality_limited:exception_type " + ERROR_COUNTER));
        assertEquals(48, limits.collapsed().count(LimitedName.EXCEPTION_TYPE));
    }

    @Test
    void anExceptionTypeBeyondItsOwnLimitTakesNoRoomInTheSeriesLimitAndIsCountedOnce() {
        start(1, 100, 1); // ten series of errors_1m a day, one exception type
        sendError("first", MINUTE, "env-0", "GET /a", "Error0");
        for (int type = 1; type < 10; type++) {
            sendError("beyond-" + type, MINUTE, "env-0", "GET /a", "Error" + type);
        }
        for (int environment = 1; environment < 10; environment++) {
            sendError("in-" + environment, MINUTE, "env-" + environment, "GET /a", "Error0");
        }
        Map<String, ErrorRow> rows = latest(TOPICS.errors1m(), ErrorRow.class, row -> row.environment() + ' ' + row.exceptionType());
        assertEquals(11, rows.size(), "Error0 in each of ten environments, <other> in env-0");
        assertEquals(9L, outcomes().get("shop " + MINUTE_SECONDS + " cardinality_limited:exception_type " + ERROR_COUNTER));
    }

    @Test
    void eachProjectHasItsOwnEnvironments() {
        start(100, 1, 100);
        sendTransaction("shop", "a", MINUTE, "production", "GET /a");
        sendTransaction("blog", "b", MINUTE, "staging", "GET /a");
        assertEquals(Map.of(), outcomes());
    }

    /** The latest outcome count per (project, minute, outcome, counter), as outcomes_1m keeps it. */
    private Map<String, Long> outcomes() {
        Map<String, Long> latest = new HashMap<>();
        outcomeRows().forEach(r -> latest.put(r.project() + ' ' + r.minute() + ' ' + r.outcome() + ' ' + r.gateway(), r.events()));
        return latest;
    }

    private List<OutcomeRow> outcomeRows() {
        return driver.createOutputTopic(TOPICS.outcomes(), new StringDeserializer(), JsonSerde.of(OutcomeRow.class).deserializer())
                .readValuesToList();
    }

    private <R> Map<String, R> latest(String topic, Class<R> type, Function<R, String> key) {
        Map<String, R> latest = new HashMap<>();
        driver.createOutputTopic(topic, new StringDeserializer(), JsonSerde.of(type).deserializer()).readValuesToList()
                .forEach(row -> latest.put(key.apply(row), row));
        return latest;
    }

    /** The latest requests_1h row of each key (the output topic is read once: reading takes its records). */
    private List<RequestRow> requestHourRows() {
        return List.copyOf(latest(TOPICS.requests1h(), RequestRow.class,
                row -> row.environment() + ' ' + row.op() + ' ' + row.route() + ' ' + row.method() + ' ' + row.statusCode()).values());
    }

    /** Requests by one field of the key, summed over the rest. */
    private static Map<String, Long> requestsBy(List<RequestRow> rows, Function<RequestRow, String> field) {
        Map<String, Long> sums = new HashMap<>();
        rows.forEach(row -> sums.merge(field.apply(row), row.requests(), Long::sum));
        return sums;
    }

    private void sendRequest(String eventId, Instant eventTime, String op, String route, int status) {
        sendRequest(eventId, eventTime, "production", op, route, status);
    }

    private void sendRequest(String eventId, Instant eventTime, String environment, String op, String route, int status) {
        String json = "{\"transaction\": " + RequestAggregatesTest.quoted(route) + ", \"transaction_info\": {\"source\": \"route\"}, "
                + "\"environment\": " + RequestAggregatesTest.quoted(environment) + ", \"contexts\": {\"trace\": {\"op\": " + RequestAggregatesTest.quoted(op) + "}}, "
                + "\"tags\": {\"http.status_code\": \"" + status + "\"}}";
        transactions.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8),
                RequestAggregatesTest.headers("shop", eventId, eventTime), eventTime));
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
    }

    private void sendTransaction(String eventId, Instant eventTime, String environment, String route) {
        sendTransaction("shop", eventId, eventTime, environment, route);
    }

    private void sendTransaction(String project, String eventId, Instant eventTime, String environment, String route) {
        String json = "{\"transaction\": " + RequestAggregatesTest.quoted(route) + ", \"transaction_info\": {\"source\": \"route\"}, "
                + "\"environment\": " + RequestAggregatesTest.quoted(environment) + ", \"tags\": {\"http.status_code\": \"200\"}}";
        transactions.pipeInput(new TestRecord<>(project, json.getBytes(StandardCharsets.UTF_8),
                RequestAggregatesTest.headers(project, eventId, eventTime), eventTime));
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL); // the raw task's sums reach the counts
    }

    private void sendError(String eventId, Instant eventTime, String environment, String route, String type) {
        String json = "{\"environment\": " + RequestAggregatesTest.quoted(environment) + ", \"transaction\": "
                + RequestAggregatesTest.quoted(route) + ", \"exception\": {\"values\": [{\"type\": "
                + RequestAggregatesTest.quoted(type) + ", \"value\": \"boom\"}]}}";
        errors.pipeInput(new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8),
                RequestAggregatesTest.headers("shop", eventId, eventTime), eventTime));
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
    }
}
