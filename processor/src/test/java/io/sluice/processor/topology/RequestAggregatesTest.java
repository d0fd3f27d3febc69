package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.events.DurationBuckets;
import io.sluice.events.EventHeaders;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.rows.Columns;
import io.sluice.processor.rows.ErrorHourRow;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.TrafficRow;

/** requests_1m, requests_1h, traffic_1h and errors_1h rows, the traffic counting rule and the route limit, without Kafka. */
class RequestAggregatesTest {
    @TempDir
    Path stateDir;
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant HOUR = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant MINUTE = HOUR.plus(Duration.ofMinutes(15));
    private static final int LIMIT = 50;

    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> transactions;
    private TestInputTopic<String, byte[]> errors;
    private TestOutputTopic<String, RequestRow> minutes;
    private TestOutputTopic<String, RequestRow> hours;
    private TestOutputTopic<String, ErrorHourRow> errorHours;
    private TestOutputTopic<String, TrafficRow> traffic;
    private TestOutputTopic<String, TrafficRow> trafficHours;
    private CardinalityLimits limits;

    private void start(int routesPerDay) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "aggregates-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // not the shared /tmp/kafka-streams: builds may run side by side
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0); // every update visible at once
        limits = CardinalityLimits.ofRoutes(routesPerDay);
        driver = new TopologyTestDriver(topology(), props);
        transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(), new ByteArraySerializer());
        errors = driver.createInputTopic(TOPICS.errors(), new StringSerializer(), new ByteArraySerializer());
        minutes = driver.createOutputTopic(TOPICS.requests1m(), new StringDeserializer(), JsonSerde.of(RequestRow.class).deserializer());
        hours = driver.createOutputTopic(TOPICS.requests1h(), new StringDeserializer(), JsonSerde.of(RequestRow.class).deserializer());
        errorHours = driver.createOutputTopic(TOPICS.errors1h(), new StringDeserializer(), JsonSerde.of(ErrorHourRow.class).deserializer());
        traffic = driver.createOutputTopic(TOPICS.traffic(), new StringDeserializer(), JsonSerde.of(TrafficRow.class).deserializer());
        trafficHours = driver.createOutputTopic(TOPICS.traffic1h(), new StringDeserializer(),
                JsonSerde.of(TrafficRow.class).deserializer());
    }

    private Topology topology() {
        return ProcessorTopology.build(TOPICS, Duration.ofHours(24), 0, ProcessorTopology.DEFAULT_LATE_MARGIN, new DeadLetterCounts(),
                new RecordsReadFromJson(), new FilterMemory(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES), limits);
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void requestsAreCountedPerMinuteAndHourByOpRouteMethodAndStatusCode() {
        start(LIMIT);
        send("a1", MINUTE.plusSeconds(1), "GET /users/{id}", "http.server", "200", 12.0);
        send("a2", MINUTE.plusSeconds(2), "GET /users/{id}", "http.server", "200", 30.0);
        send("a3", MINUTE.plusSeconds(3), "GET /users/{id}", "http.server", "404", 2.0);
        send("a4", MINUTE.plusSeconds(4), "POST /orders", "http.server", null, null);
        send("a5", MINUTE.plusSeconds(65), "GET /users/{id}", "http.server", "200", 5.0); // the next minute, same hour
        Map<String, RequestRow> byMinute = latestPerKey(minutes.readValuesToList(), RequestRow::topicKey);
        assertEquals(4, byMinute.size());
        RequestRow ok = row(byMinute.values(), MINUTE, "GET /users/{id}", 200);
        assertEquals(2, ok.requests());
        assertEquals(2, ok.timed());
        assertEquals(42.0, ok.durationSumMs());
        assertEquals("GET", ok.method());
        assertEquals("http.server", ok.op());
        assertEquals(2, ok.version());
        RequestRow none = row(byMinute.values(), MINUTE, "POST /orders", 0);
        assertEquals(1, none.requests());
        assertEquals(0, none.timed());
        assertEquals(0, sum(none.durationBuckets()));

        Map<String, RequestRow> byHour = latestPerKey(hours.readValuesToList(), RequestRow::topicKey);
        assertEquals(3, byHour.size());
        RequestRow hourOk = byHour.values().stream()
                .filter(r -> r.route().equals("GET /users/{id}") && r.statusCode() == 200).findFirst().orElseThrow();
        assertEquals(HOUR.getEpochSecond(), hourOk.start().epochSecond());
        assertEquals(3, hourOk.requests());
        assertEquals(47.0, hourOk.durationSumMs());
        assertEquals(3, hourOk.version());
    }

    @Test
    void durationsFillTheHistogramBucketOfEachRequest() {
        start(LIMIT);
        send("a1", MINUTE.plusSeconds(1), "GET /a", "http.server", "200", 0.3);
        send("a2", MINUTE.plusSeconds(2), "GET /a", "http.server", "200", 1000.0);
        send("a3", MINUTE.plusSeconds(3), "GET /a", "http.server", "200", 1000.0);
        send("a4", MINUTE.plusSeconds(4), "GET /a", "http.server", "200", 9_999_999.0);
        RequestRow row = latestPerKey(minutes.readValuesToList(), RequestRow::topicKey).values().iterator().next();
        long[] expected = new long[DurationBuckets.COUNT];
        expected[0] = 1;
        expected[DurationBuckets.of(1000.0)] = 2;
        expected[DurationBuckets.COUNT - 1] = 1;
        assertArrayEquals(expected, row.durationBuckets());
        assertEquals(4, row.timed());
        assertEquals(10_001_999.3, row.durationSumMs());
    }

    @Test
    void aRetryIsCountedOnceInEveryAggregate() {
        start(LIMIT);
        send("same", MINUTE.plusSeconds(1), "GET /a", "http.server", "500", 10.0);
        send("same", MINUTE.plusSeconds(40), "GET /a", "http.server", "500", 10.0);
        sendError("e1", MINUTE.plusSeconds(2), "GET /a", "ValueError");
        sendError("e1", MINUTE.plusSeconds(50), "GET /a", "ValueError");
        assertEquals(List.of(1L), minutes.readValuesToList().stream().map(RequestRow::requests).toList());
        assertEquals(List.of(1L), hours.readValuesToList().stream().map(RequestRow::requests).toList());
        assertEquals(List.of(1L), trafficHours.readValuesToList().stream().map(TrafficRow::requests).toList());
        assertEquals(List.of(1L), errorHours.readValuesToList().stream().map(ErrorHourRow::errors).toList());
    }

    @Test
    void aLateEventIsCountedInItsOwnHour() {
        start(LIMIT);
        send("now", MINUTE.plus(Duration.ofHours(3)), "GET /a", "http.server", "200", 1.0);
        send("late", MINUTE.plusSeconds(10), "GET /a", "http.server", "200", 1.0);
        Map<Long, Long> requestsByHour = hours.readValuesToList().stream()
                .collect(Collectors.toMap(row -> row.start().epochSecond(), RequestRow::requests, Math::max));
        Map<Long, Long> trafficByHour = trafficHours.readValuesToList().stream()
                .collect(Collectors.toMap(row -> row.start().epochSecond(), TrafficRow::requests, Math::max));
        Map<Long, Long> expected = Map.of(HOUR.getEpochSecond(), 1L, HOUR.plus(Duration.ofHours(3)).getEpochSecond(), 1L);
        assertEquals(expected, requestsByHour);
        assertEquals(expected, trafficByHour, "traffic_1h");
    }

    @Test
    void trafficCountsHandledRequestsOnlyAndRequestsCountEveryKindUnderItsOp() {
        start(LIMIT);
        send("api", MINUTE.plusSeconds(1), "GET /a", null, "200", null); // a /api/v1/ call: no op
        send("server", MINUTE.plusSeconds(2), "GET /a", "http.server", "200", 3.0);
        send("page", MINUTE.plusSeconds(3), "/checkout", "pageload", null, 800.0);
        send("nav", MINUTE.plusSeconds(4), "/checkout", "navigation", null, 120.0);
        send("task", MINUTE.plusSeconds(5), "send_mail", "queue.task", null, 20.0);
        assertEquals(2, latestPerKey(traffic.readValuesToList(), r -> r.project() + r.start().epochSecond()).values().iterator().next().requests());
        Map<String, Long> requestsByOp = latestPerKey(minutes.readValuesToList(), RequestRow::topicKey).values().stream()
                .collect(Collectors.groupingBy(RequestRow::op, Collectors.summingLong(RequestRow::requests)));
        // The /api/v1/ call, with no op, is a handled request: counted under http.server with the SDKs' ones.
        assertEquals(Map.of("http.server", 2L, "pageload", 1L, "navigation", 1L, "queue.task", 1L), requestsByOp);
    }

    @Test
    void trafficIsCountedPerHourAsItsOwnAbsoluteCountByStatusClass() {
        start(LIMIT);
        send("a1", MINUTE.plusSeconds(1), "GET /a", "http.server", "200", 1.0);
        send("a2", MINUTE.plusSeconds(65), "GET /b", "http.server", "503", 1.0); // the next minute, same hour
        send("a3", MINUTE.plusSeconds(130), "GET /b", null, null, null);
        send("page", MINUTE.plusSeconds(3), "/checkout", "pageload", null, 800.0); // a page view: not traffic
        send("next", MINUTE.plus(Duration.ofHours(1)), "GET /a", "http.server", "200", 1.0);
        Map<String, TrafficRow> byHour = latestPerKey(trafficHours.readValuesToList(), TrafficRow::topicKey);
        assertEquals(2, byHour.size());
        TrafficRow first = byHour.values().stream().filter(r -> r.start().epochSecond() == HOUR.getEpochSecond()).findFirst().orElseThrow();
        assertEquals(List.of(3L, 1L, 1L, 1L), List.of(first.requests(), first.status2xx(), first.status5xx(), first.statusNone()));
        assertEquals(3, first.version(), "versioned as traffic_1m: the hour's request count");
    }

    @Test
    void bothTrafficWindowsShareOneRepartitionTopic() {
        limits = CardinalityLimits.ofRoutes(LIMIT);
        long trafficRepartitions = topology().describe().subtopologies().stream().flatMap(s -> s.nodes().stream())
                .filter(n -> n instanceof TopologyDescription.Sink sink && sink.topic() != null
                        && sink.topic().contains("traffic-by-environment"))
                .count();
        assertEquals(1, trafficRepartitions);
    }

    @Test
    void errorsAreCountedPerHourByRouteAndExceptionType() {
        start(LIMIT);
        sendError("e1", MINUTE.plusSeconds(1), "GET /a", "ValueError");
        sendError("e2", MINUTE.plusSeconds(600), "GET /a", "ValueError");
        sendError("e3", MINUTE.plusSeconds(3), "GET /b", "ValueError");
        sendError("e4", MINUTE.plusSeconds(4), "GET /a", "KeyError");
        Map<String, Long> counts = latestPerKey(errorHours.readValuesToList(), ErrorHourRow::topicKey).values().stream()
                .collect(Collectors.toMap(r -> r.route() + " " + r.exceptionType() + " @" + r.start().epochSecond(), ErrorHourRow::errors));
        long hour = HOUR.getEpochSecond();
        assertEquals(Map.of("GET /a ValueError @" + hour, 2L, "GET /b ValueError @" + hour, 1L, "GET /a KeyError @" + hour, 1L), counts);
    }

    @Test
    void tenThousandDistinctPathsFromOneProjectKeepAtMostTheLimitOfRoutesAndEveryRequestIsCounted() {
        start(LIMIT);
        for (int i = 0; i < 10_000; i++) {
            send("r" + i, MINUTE.plusMillis(i), "GET /random/" + letters(i), "http.server", "200", 1.0);
        }
        List<RequestRow> rows = List.copyOf(latestPerKey(hours.readValuesToList(), RequestRow::topicKey).values());
        assertEquals(LIMIT + 1, rows.size(), "the limit's routes and <other>");
        assertEquals(10_000, rows.stream().mapToLong(RequestRow::requests).sum());
        assertEquals(10_000 - LIMIT, rows.stream().filter(r -> r.route().equals("<other>")).findFirst().orElseThrow().requests());
        assertEquals(10_000 - LIMIT, limits.collapsed().count(LimitedName.ROUTE));
        Map<String, RequestRow> byMinute = latestPerKey(minutes.readValuesToList(), RequestRow::topicKey);
        assertEquals(10_000, byMinute.values().stream().mapToLong(RequestRow::requests).sum());
        assertEquals(LIMIT + 1, byMinute.values().stream().map(RequestRow::route).distinct().count());
    }

    /** The op is the client's too: 2,000 random ops on one route add at most the limit's series and one <other>. */
    @Test
    void randomOpsOfOneTenantAreBoundedByTheLimitToo() {
        start(LIMIT);
        for (int i = 0; i < 2_000; i++) {
            send("o" + i, MINUTE.plusMillis(i), "GET /a", "op." + letters(i), "200", 1.0);
        }
        send("handled", MINUTE.plusSeconds(5), "GET /b", "http.server", "200", 1.0);
        List<RequestRow> rows = List.copyOf(latestPerKey(hours.readValuesToList(), RequestRow::topicKey).values());
        assertEquals(LIMIT + 2, rows.size(), "the limit's series, <other> and the handled request beyond the limit");
        assertEquals(2_001, rows.stream().mapToLong(RequestRow::requests).sum());
        assertEquals(2_000 - LIMIT, rows.stream().filter(r -> r.op().equals("<other>")).mapToLong(RequestRow::requests).sum());
        assertEquals(1, rows.stream().filter(r -> r.op().equals("http.server")).count(), "a known op keeps its name beyond the limit");
    }

    @Test
    void routesAdmittedEarlierInTheDayKeepTheirNameBeyondTheLimit() {
        start(2);
        send("a1", MINUTE, "GET /a", "http.server", "200", 1.0);
        send("b1", MINUTE.plusSeconds(1), "GET /b", "http.server", "200", 1.0);
        send("c1", MINUTE.plusSeconds(2), "GET /c", "http.server", "200", 1.0);
        send("a2", MINUTE.plusSeconds(3), "GET /a", "http.server", "200", 1.0);
        Map<String, Long> byRoute = hourRequestsByRoute();
        assertEquals(Map.of("GET /a", 2L, "GET /b", 1L, "<other>", 1L), byRoute);
    }

    @Test
    void theLimitIsPerProject() {
        start(1);
        send("shop", "a1", MINUTE, "GET /a", "200");
        send("shop", "b1", MINUTE.plusSeconds(1), "GET /b", "200");
        send("blog", "b2", MINUTE.plusSeconds(2), "GET /b", "200");
        Map<String, Long> byProjectAndRoute = latestPerKey(hours.readValuesToList(), RequestRow::topicKey).values().stream()
                .collect(Collectors.toMap(r -> r.project() + " " + r.route(), RequestRow::requests));
        assertEquals(Map.of("shop GET /a", 1L, "shop <other>", 1L, "blog GET /b", 1L), byProjectAndRoute);
    }

    @Test
    void eachEventTimeDayAdmitsItsOwnRoutes() {
        start(1);
        send("a1", MINUTE, "GET /a", "http.server", "200", 1.0);
        send("b1", MINUTE.plusSeconds(1), "GET /b", "http.server", "200", 1.0);
        send("b2", MINUTE.plus(Duration.ofDays(1)), "GET /b", "http.server", "200", 1.0);
        Set<String> routes = latestPerKey(hours.readValuesToList(), RequestRow::topicKey).values().stream()
                .map(r -> Instant.ofEpochSecond(r.start().epochSecond()).toString().substring(0, 10) + " " + r.route()).collect(Collectors.toSet());
        assertEquals(Set.of("2026-11-22 GET /a", "2026-11-22 <other>", "2026-11-23 GET /b"), routes);
    }

    @Test
    void errorRoutesAreLimitedTheSameWay() {
        start(1);
        sendError("e1", MINUTE, "GET /a", "ValueError");
        sendError("e2", MINUTE.plusSeconds(1), "GET /b", "ValueError");
        Map<String, Long> byRoute = latestPerKey(errorHours.readValuesToList(), ErrorHourRow::topicKey).values().stream()
                .collect(Collectors.toMap(ErrorHourRow::route, ErrorHourRow::errors));
        assertEquals(Map.of("GET /a", 1L, "<other>", 1L), byRoute);
    }

    @Test
    void aLoneSurrogateInARouteBecomesAReplacementCharacter() {
        start(LIMIT);
        send("s1", MINUTE, "GET /caf\uD800", "http.server", "200", 1.0);
        send("s2", MINUTE.plusSeconds(1), "GET /caf\uDC00", "http.server", "200", 1.0);
        assertEquals(Map.of("GET /caf\uFFFD", 2L), hourRequestsByRoute());
    }

    @Test
    void aHugeRouteIsCutAndCounted() {
        start(LIMIT);
        String huge = "GET /" + "x".repeat(100_000);
        send("h1", MINUTE, huge, "http.server", "200", 1.0);
        send("h2", MINUTE.plusSeconds(1), huge, "http.server", "200", 1.0);
        Map<String, Long> byRoute = hourRequestsByRoute();
        assertEquals(1, byRoute.size());
        assertEquals(io.sluice.events.Routes.MAX_LENGTH, byRoute.keySet().iterator().next().length(), "cut where routes are read");
        assertEquals(2L, byRoute.values().iterator().next());
    }

    @Test
    void rowsThatDifferOnlyInWhereASlashFallsHaveDifferentTopicKeys() {
        start(LIMIT);
        sendError("e1", MINUTE, "a/b", "c");
        sendError("e2", MINUTE.plusSeconds(1), "a", "b/c");
        assertEquals(2, latestPerKey(errorHours.readValuesToList(), ErrorHourRow::topicKey).size());
    }

    @Test
    void bothRequestWindowsShareOneRepartitionTopic() {
        limits = CardinalityLimits.ofRoutes(LIMIT);
        TopologyDescription description = topology().describe();
        long requestRepartitions = description.subtopologies().stream().flatMap(s -> s.nodes().stream())
                .filter(n -> n instanceof TopologyDescription.Sink sink && sink.topic() != null && sink.topic().contains("requests-by-route"))
                .count();
        assertEquals(1, requestRepartitions);
    }

    private Map<String, Long> hourRequestsByRoute() {
        return latestPerKey(hours.readValuesToList(), RequestRow::topicKey).values().stream()
                .collect(Collectors.toMap(RequestRow::route, RequestRow::requests));
    }

    /** A name of letters from g to z only: no normalization takes it for a number, id or hex token. */
    private static String letters(int n) {
        StringBuilder name = new StringBuilder();
        do {
            name.append((char) ('g' + n % 20));
            n /= 20;
        } while (n > 0);
        return name.toString();
    }

    private static <R> Map<String, R> latestPerKey(List<R> rows, java.util.function.Function<R, String> key) {
        Map<String, R> latest = new HashMap<>();
        rows.forEach(row -> latest.put(key.apply(row), row));
        return latest;
    }

    private static RequestRow row(java.util.Collection<RequestRow> rows, Instant minute, String route, int status) {
        return rows.stream().filter(r -> r.start().epochSecond() == minute.getEpochSecond() && r.route().equals(route) && r.statusCode() == status)
                .findFirst().orElseThrow();
    }

    private static long sum(long[] values) {
        long sum = 0;
        for (long value : values) {
            sum += value;
        }
        return sum;
    }

    private void send(String project, String eventId, Instant eventTime, String route, String status) {
        pipe(transactions, new TestRecord<>(project, json(route, "http.server", status, 1.0, eventTime),
                headers(project, eventId, eventTime), eventTime));
    }

    private void send(String eventId, Instant eventTime, String route, String op, String status, Double durationMs) {
        pipe(transactions, new TestRecord<>("shop", json(route, op, status, durationMs, eventTime),
                headers("shop", eventId, eventTime), eventTime));
    }

    /** A transaction whose name is a route as the client sent it (Sentry's transaction_info.source "route"). */
    private static byte[] json(String route, String op, String status, Double durationMs, Instant eventTime) {
        StringBuilder json = new StringBuilder("{\"transaction\": ").append(quoted(route))
                .append(", \"transaction_info\": {\"source\": \"route\"}, \"environment\": \"production\"");
        if (op != null) {
            json.append(", \"contexts\": {\"trace\": {\"op\": ").append(quoted(op)).append("}}");
        }
        if (status != null) {
            json.append(", \"tags\": {\"http.status_code\": \"").append(status).append("\"}");
        }
        if (durationMs != null) {
            double end = eventTime.toEpochMilli() / 1000.0;
            json.append(", \"start_timestamp\": ").append(end - durationMs / 1000.0).append(", \"timestamp\": ").append(end);
        }
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private void sendError(String eventId, Instant eventTime, String route, String type) {
        String json = "{\"environment\": \"production\", \"transaction\": " + quoted(route)
                + ", \"exception\": {\"values\": [{\"type\": " + quoted(type) + ", \"value\": \"boom\"}]}}";
        pipe(errors, new TestRecord<>("shop", json.getBytes(StandardCharsets.UTF_8), headers("shop", eventId, eventTime), eventTime));
    }

    static String quoted(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (Character.isSurrogate(c) || c < 0x20) {
                out.append(String.format("\\u%04x", (int) c)); // a lone surrogate or a control character, as JSON carries them
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    static RecordHeaders headers(String project, String eventId, Instant eventTime) {
        RecordHeaders headers = new RecordHeaders();
        EventHeaders.put(headers, EventHeaders.EVENT_ID, eventId);
        EventHeaders.put(headers, EventHeaders.PROJECT, project);
        EventHeaders.put(headers, EventHeaders.EVENT_TIME, Long.toString(eventTime.toEpochMilli()));
        EventHeaders.put(headers, EventHeaders.RECEIVED_AT, Long.toString(eventTime.toEpochMilli()));
        return headers;
    }

    /** One record in, and the wall clock on by a flush: the raw task's sums reach the counts (see {@link PartialCounts}). */
    private void pipe(TestInputTopic<String, byte[]> topic, TestRecord<String, byte[]> record) {
        topic.pipeInput(record);
        driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
    }
}
