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
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.processor.rows.RequestCounts;
import io.sluice.processor.rows.RequestKey;
import io.sluice.processor.rows.RequestRow;

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
        RequestRow row = RequestRow.of(key, MINUTE.toEpochMilli(), RequestCounts.NONE.add(12.0, 1_000_000L), 0);
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
