package io.sluice.processor.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Aggregate;
import io.sluice.config.Aggregate.Window;
import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.rows.ErrorKey;
import io.sluice.processor.rows.ErrorRouteKey;
import io.sluice.processor.rows.RequestCounts;
import io.sluice.processor.rows.RequestKey;
import io.sluice.processor.rows.RequestRow;
import io.sluice.processor.rows.SessionKey;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.rows.WindowStart;

/**
 * What a running deployment's state and topics are found by, which an upgrade must keep: each
 * subtopology's stores and topics (a changed store or repartition name would lose counts), and the
 * aggregate rows' keys and JSON (what the sink inserts and compaction keeps).
 */
class TopologyUpgradeTest {
    private static final Topics TOPICS = Topics.from(new Settings(Map.of()));
    private static final Instant MINUTE = Instant.parse("2026-11-22T10:15:00Z");

    @TempDir
    Path stateDir;

    @Test
    void everySubtopologyKeepsItsStoresAndTopics() throws IOException {
        assertEquals(resource("topology-shape.txt"), shape(ProcessorTopology.build(TOPICS, Duration.ofHours(24)).describe()));
    }

    @Test
    void everyAggregateRowKeepsItsKeyAndJson() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "upgrade-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        StringBuilder rows = new StringBuilder();
        try (TopologyTestDriver driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24)), props)) {
            TestInputTopic<String, byte[]> transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(),
                    new ByteArraySerializer());
            TestInputTopic<String, byte[]> errors = driver.createInputTopic(TOPICS.errors(), new StringSerializer(),
                    new ByteArraySerializer());
            String transaction = "{\"transaction\": \"GET /users/{id}\", \"transaction_info\": {\"source\": \"route\"},"
                    + " \"environment\": \"production\", \"contexts\": {\"trace\": {\"op\": \"http.server\"}},"
                    + " \"tags\": {\"http.status_code\": \"404\"}, \"start_timestamp\": " + (MINUTE.getEpochSecond() + 0.988)
                    + ", \"timestamp\": " + (MINUTE.getEpochSecond() + 1) + "}";
            transactions.pipeInput(new TestRecord<>("shop", transaction.getBytes(StandardCharsets.UTF_8),
                    RequestAggregatesTest.headers("shop", "t1", MINUTE.plusSeconds(1)), MINUTE.plusSeconds(1)));
            String error = "{\"environment\": \"production\", \"transaction\": \"GET /users/{id}\","
                    + " \"exception\": {\"values\": [{\"type\": \"Timeout\", \"value\": \"boom\"}]}}";
            errors.pipeInput(new TestRecord<>("shop", error.getBytes(StandardCharsets.UTF_8),
                    RequestAggregatesTest.headers("shop", "e1", MINUTE.plusSeconds(2)), MINUTE.plusSeconds(2)));
            driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
            for (String topic : new String[] {TOPICS.traffic(), TOPICS.traffic1h(), TOPICS.requests1m(), TOPICS.requests1h(),
                    TOPICS.errors1m(), TOPICS.errors1h()}) {
                driver.createOutputTopic(topic, new StringDeserializer(), new StringDeserializer()).readKeyValuesToList()
                        .forEach(row -> rows.append(topic).append(' ').append(row.key).append(' ').append(row.value).append('\n'));
            }
        }
        assertEquals("""
                sluice.traffic-1m shop/production/1795342500 {"project":"shop","environment":"production","minute":1795342500,"requests":1,"status_1xx":0,"status_2xx":0,"status_3xx":0,"status_4xx":1,"status_5xx":0,"status_none":0,"version":1,"estimated_requests":1.0,"estimated_status_1xx":0.0,"estimated_status_2xx":0.0,"estimated_status_3xx":0.0,"estimated_status_4xx":1.0,"estimated_status_5xx":0.0,"estimated_status_none":0.0}
                sluice.traffic-1h 4:shop/10:production/10:1795341600/ {"project":"shop","environment":"production","hour":1795341600,"requests":1,"status_1xx":0,"status_2xx":0,"status_3xx":0,"status_4xx":1,"status_5xx":0,"status_none":0,"version":1,"estimated_requests":1.0,"estimated_status_1xx":0.0,"estimated_status_2xx":0.0,"estimated_status_3xx":0.0,"estimated_status_4xx":1.0,"estimated_status_5xx":0.0,"estimated_status_none":0.0}
                sluice.requests-1m 4:shop/10:production/10:1795342500/11:http.server/15:GET /users/{id}/3:GET/3:404/ {"project":"shop","environment":"production","minute":1795342500,"op":"http.server","route":"GET /users/{id}","method":"GET","status_code":404,"requests":1,"timed":1,"duration_sum_ms":12.0,"duration_buckets":[0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"version":1,"estimated_requests":1.0}
                sluice.requests-1h 4:shop/10:production/10:1795341600/11:http.server/15:GET /users/{id}/3:GET/3:404/ {"project":"shop","environment":"production","hour":1795341600,"op":"http.server","route":"GET /users/{id}","method":"GET","status_code":404,"requests":1,"timed":1,"duration_sum_ms":12.0,"duration_buckets":[0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"version":1,"estimated_requests":1.0}
                sluice.errors-1m shop/production/1795342500/Timeout {"project":"shop","environment":"production","minute":1795342500,"exception_type":"Timeout","errors":1,"version":1}
                sluice.errors-1h 4:shop/10:production/10:1795341600/15:GET /users/{id}/7:Timeout/ {"project":"shop","environment":"production","hour":1795341600,"route":"GET /users/{id}","exception_type":"Timeout","errors":1,"version":1}
                """, rows.toString());
    }

    /**
     * The limits' stores (and their changelogs) hold names, series and counts under text keys: a
     * changed key would forget the names a project was admitted that day and admit as many again.
     */
    @Test
    void everyLimitsStoreKeepsItsKeys() {
        StringBuilder keys = new StringBuilder();
        try (TopologyTestDriver driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24), 0,
                ProcessorTopology.DEFAULT_LATE_MARGIN, new DeadLetterCounts(), new RecordsReadFromJson(),
                new FilterMemory(ProcessorTopology.DEFAULT_FILTER_MEMORY_BYTES), CardinalityLimits.of(1, 1, 1, 1)), properties())) {
            TestInputTopic<String, byte[]> transactions = driver.createInputTopic(TOPICS.transactions(), new StringSerializer(),
                    new ByteArraySerializer());
            TestInputTopic<String, byte[]> errors = driver.createInputTopic(TOPICS.errors(), new StringSerializer(),
                    new ByteArraySerializer());
            TestInputTopic<String, byte[]> sessions = driver.createInputTopic(TOPICS.sessions(), new StringSerializer(),
                    new ByteArraySerializer());
            String[][] sent = {{"production", "shop@1.0", "GET /a", "Timeout", "0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11"},
                    {"staging", "shop@2.0", "GET /b", "ValueError", "8d3b7c1e-2f4a-4d6b-8e9f-0a1b2c3d4e5f"}};
            for (int i = 0; i < sent.length; i++) {
                String environment = sent[i][0];
                String release = sent[i][1];
                String route = sent[i][2];
                Instant time = MINUTE.plusSeconds(i);
                String transaction = "{\"transaction\": \"" + route + "\", \"transaction_info\": {\"source\": \"route\"},"
                        + " \"environment\": \"" + environment + "\", \"release\": \"" + release + "\","
                        + " \"contexts\": {\"trace\": {\"op\": \"http.server\"}}, \"tags\": {\"http.status_code\": \"200\"}}";
                transactions.pipeInput(new TestRecord<>("shop", transaction.getBytes(StandardCharsets.UTF_8),
                        RequestAggregatesTest.headers("shop", "t" + i, time), time));
                String error = "{\"environment\": \"" + environment + "\", \"transaction\": \"" + route + "\","
                        + " \"exception\": {\"values\": [{\"type\": \"" + sent[i][3] + "\", \"value\": \"boom\"}]}}";
                errors.pipeInput(new TestRecord<>("shop", error.getBytes(StandardCharsets.UTF_8),
                        RequestAggregatesTest.headers("shop", "e" + i, time), time));
                String session = "{\"sid\": \"" + sent[i][4] + "\", \"init\": true, \"started\": \"" + time
                        + "\", \"attrs\": {\"release\": \"" + release + "\", \"environment\": \"" + environment + "\"}}";
                sessions.pipeInput(new TestRecord<>("shop", session.getBytes(StandardCharsets.UTF_8),
                        RequestAggregatesTest.headers("shop", sent[i][4].replace("-", ""), time), time));
                driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
            }
            for (String store : new String[] {"transaction-names", "transaction-routes", "transaction-outcomes", "error-names",
                    "error-routes", "error-outcomes", "session-names", "session-outcomes"}) {
                TreeSet<String> stored = new TreeSet<>();
                try (KeyValueIterator<Windowed<String>, Long> all = driver.<String, Long>getWindowStore(store).all()) {
                    all.forEachRemaining(entry -> stored.add(entry.key.key().replace("\0", "\\0") + "=" + entry.value));
                }
                keys.append(store).append(' ').append(stored).append('\n');
            }
        }
        assertEquals("""
                transaction-names [ENVIRONMENT\\0\\0shop=1, ENVIRONMENT\\0shop\\0production=1, RELEASE\\0\\0shop=1, RELEASE\\0shop\\0shop@1.0=1]
                transaction-routes [\\0series\\0\\0shop=2, \\0series\\0shop\\010:production\\08:shop@1.011:http.serverGET /a\\0GET\\0200=1, \\0series\\0shop\\07:<other>\\07:<other>11:http.server<other>\\0GET\\0200=1, \\0shop=1, shop\\011:http.serverGET /a=1]
                transaction-outcomes [shop\\0ENVIRONMENT=1, shop\\0RELEASE=1, shop\\0ROUTE=1]
                error-names [ENVIRONMENT\\0\\0shop=1, ENVIRONMENT\\0shop\\0production=1, EXCEPTION_TYPE\\0\\0shop=1, EXCEPTION_TYPE\\0shop\\0Timeout=1, EXCEPTION_TYPE_SERIES\\0\\0shop=1, EXCEPTION_TYPE_SERIES\\0shop\\010:productionTimeout=1]
                error-routes [\\0series\\0\\0shop=2, \\0series\\0shop\\010:production6:GET /aTimeout=1, \\0series\\0shop\\07:<other>7:<other><other>=1, \\0shop=1, shop\\0GET /a=1]
                error-outcomes [shop\\0ENVIRONMENT=1, shop\\0EXCEPTION_TYPE=1, shop\\0ROUTE=1]
                session-names [ENVIRONMENT\\0\\0shop=1, ENVIRONMENT\\0shop\\0production=1, RELEASE\\0\\0shop=1, RELEASE\\0shop\\0shop@1.0=1, RELEASE_SERIES\\0\\0shop=1, RELEASE_SERIES\\0shop\\0production\\0shop@1.0=1]
                session-outcomes [shop\\0ENVIRONMENT=1, shop\\0RELEASE=1]
                """, keys.toString());
    }

    @Test
    void theSessionRowKeepsItsKeyAndJson() {
        StringBuilder rows = new StringBuilder();
        try (TopologyTestDriver driver = new TopologyTestDriver(ProcessorTopology.build(TOPICS, Duration.ofHours(24)), properties())) {
            TestInputTopic<String, byte[]> sessions = driver.createInputTopic(TOPICS.sessions(), new StringSerializer(),
                    new ByteArraySerializer());
            String session = "{\"sid\": \"0f5d2f9c-6c3f-4b7e-9a51-2b7d6f0c1a11\", \"init\": true, \"started\": \"" + MINUTE
                    + "\", \"status\": \"crashed\", \"attrs\": {\"release\": \"shop@2.4.1\", \"environment\": \"production\"}}";
            sessions.pipeInput(new TestRecord<>("shop", session.getBytes(StandardCharsets.UTF_8),
                    RequestAggregatesTest.headers("shop", "0f5d2f9c6c3f4b7e9a512b7d6f0c1a11", MINUTE), MINUTE));
            driver.advanceWallClockTime(PartialCounts.FLUSH_INTERVAL);
            driver.createOutputTopic(TOPICS.of(Aggregate.SESSIONS_1H), new StringDeserializer(), new StringDeserializer()).readKeyValuesToList()
                    .forEach(row -> rows.append(row.key).append(' ').append(row.value).append('\n'));
        }
        assertEquals("""
                4:shop/10:production/10:shop@2.4.1/10:1795341600/ {"project":"shop","environment":"production","release":"shop@2.4.1","hour":1795341600,"started":1,"errored":1,"crashed":1,"abnormal":0,"exited":0,"version":3}
                """, rows.toString());
    }

    /** What the counts are grouped by: these bytes are the repartition records' keys and the window stores' keys. */
    @Test
    void everyGroupingKeyKeepsItsBytes() {
        String keys = String.join("\n",
                bytes(CountedAggregates.TRAFFIC.keys(), new TrafficKey("shop", "production")),
                bytes(CountedAggregates.ERRORS.keys(), new ErrorKey("shop", "production", "Timeout")),
                bytes(CountedAggregates.ERROR_ROUTES.keys(), new ErrorRouteKey("shop", "production", "GET /users/{id}", "Timeout")),
                bytes(CountedAggregates.SESSIONS.keys(), new SessionKey("shop", "production", "shop@2.4.1")));
        assertEquals("""
                {"project":"shop","environment":"production"}
                {"project":"shop","environment":"production","exception_type":"Timeout"}
                {"project":"shop","environment":"production","route":"GET /users/{id}","exception_type":"Timeout"}
                {"project":"shop","environment":"production","release":"shop@2.4.1"}""", keys);
    }

    private static <K> String bytes(Serde<K> serde, K key) {
        return new String(serde.serializer().serialize("any", key), StandardCharsets.UTF_8);
    }

    private Properties properties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "upgrade-test");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return props;
    }

    /**
     * A request key in the repartition topics and window stores written before releases were counted
     * reads as release '' and is written back as the same bytes, so its stored counts are found and added to.
     */
    @Test
    void aRequestKeyStoredBeforeReleasesWereCountedReadsAsNoReleaseAndIsWrittenTheSame() {
        byte[] stored = "{\"project\":\"shop\",\"environment\":\"production\",\"op\":\"http.server\",\"route\":\"GET /users/{id}\",\"method\":\"GET\",\"status_code\":404}"
                .getBytes(StandardCharsets.UTF_8);
        Serde<RequestKey> keys = CountedAggregates.REQUESTS.keys();
        RequestKey read = keys.deserializer().deserialize("requests-by-route", stored);
        assertEquals(new RequestKey("shop", "production", "http.server", "GET /users/{id}", "GET", 404, ""), read);
        assertArrayEquals(stored, keys.serializer().serialize("requests-by-route", read));
    }

    @Test
    void aRequestRowOfAReleaseHasItLastInItsKeyAndJson() {
        RequestKey key = new RequestKey("shop", "production", "http.server", "GET /users/{id}", "GET", 404, "shop@2.4.1");
        assertEquals("{\"project\":\"shop\",\"environment\":\"production\",\"op\":\"http.server\",\"route\":\"GET /users/{id}\",\"method\":\"GET\",\"status_code\":404,\"release\":\"shop@2.4.1\"}",
                new String(CountedAggregates.REQUESTS.keys().serializer().serialize("requests-by-route", key), StandardCharsets.UTF_8));
        RequestRow row = RequestRow.of(key, new WindowStart(Window.MINUTE, MINUTE.getEpochSecond()), RequestCounts.NONE.add(12.0, 1_000_000L), 0);
        assertEquals("4:shop/10:production/10:1795342500/11:http.server/15:GET /users/{id}/3:GET/3:404/10:shop@2.4.1/", row.topicKey());
        assertEquals("{\"project\":\"shop\",\"environment\":\"production\",\"minute\":1795342500,\"op\":\"http.server\",\"route\":\"GET /users/{id}\",\"method\":\"GET\",\"status_code\":404,\"requests\":1,\"timed\":1,\"duration_sum_ms\":12.0,\"duration_buckets\":[0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"version\":1,\"estimated_requests\":1.0,\"release\":\"shop@2.4.1\"}",
                new String(JsonSerde.of(RequestRow.class).serializer().serialize("requests-1m", row), StandardCharsets.UTF_8));
    }

    /** Per subtopology: its source and sink topics and its stores, sorted (processor names may change). */
    static String shape(TopologyDescription description) {
        StringBuilder shape = new StringBuilder();
        for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
            TreeSet<String> sources = new TreeSet<>();
            TreeSet<String> sinks = new TreeSet<>();
            TreeSet<String> stores = new TreeSet<>();
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    sources.addAll(source.topicSet());
                } else if (node instanceof TopologyDescription.Sink sink) {
                    sinks.add(sink.topic());
                } else if (node instanceof TopologyDescription.Processor processor) {
                    stores.addAll(processor.stores());
                }
            }
            shape.append("subtopology ").append(subtopology.id()).append('\n')
                    .append("  sources ").append(sources).append('\n')
                    .append("  sinks ").append(sinks).append('\n')
                    .append("  stores ").append(stores).append('\n');
        }
        return shape.append("global stores ").append(description.globalStores().size()).append('\n').toString();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TopologyUpgradeTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
