package io.sluice.e2e.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.sluice.e2e.TestPipeline;
import io.sluice.projects.ProjectAdmin;
import io.sluice.testkit.Await;
import io.sluice.testkit.ClickHouseQuery;
import io.sluice.testkit.Engines;
import io.sluice.testkit.KafkaRecords;
import io.sluice.testkit.RealEngines;

/**
 * Hostile but valid content, all the way through: every string field of both event kinds is
 * filled in turn with a hostile value and sent by one tenant, and after each a second tenant
 * sends an ordinary event. Every hostile event is refused with a clear 4xx, or accepted and then
 * stored in ClickHouse or put in the dead-letter topic; every ordinary event arrives, counted
 * exactly once. No accepted input may stop a partition, the sink, or another tenant.
 */
@ExtendWith(RealEngines.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PoisonInputIT {
    private static final String DB = "sluice_poison";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String PLACEHOLDER = "@@POISON@@";
    private static final int MAX_BODY_BYTES = 1024 * 1024;

    private static final List<String> TRANSACTION_FIELDS = List.of("/transaction", "/sent_at", "/timestamp",
            "/environment", "/tags/http.status_code", "/sdk/name", "/sdk/version", "/contexts/runtime/name",
            "/contexts/runtime/version", "/contexts/os/name", "/contexts/os/version", "/contexts/trace/data/url",
            "/contexts/trace/data/method", "/user/id", "/request/url", "/request/method");
    private static final List<String> ERROR_FIELDS = List.of("/timestamp", "/environment", "/level", "/message",
            "/sdk/name", "/sdk/version", "/exception/values/0/type", "/exception/values/0/value",
            "/exception/values/0/stacktrace/frames/0/function", "/exception/values/0/stacktrace/frames/0/filename",
            "/exception/values/0/stacktrace/frames/0/lineno", "/request/url", "/request/method",
            "/request/headers/user-agent/0", "/user/id", "/contexts/runtime/name", "/contexts/os/version");

    @TempDir
    static Path stateDir;

    static Engines engines;
    static TestPipeline pipeline;
    static ProjectAdmin.NewProject attacker;
    static ProjectAdmin.NewProject bystander;

    @BeforeAll
    static void startPipeline(Engines realEngines) throws Exception {
        engines = realEngines;
        pipeline = TestPipeline.named("poison", engines, stateDir).create();
        attacker = pipeline.createProject("attacker");
        bystander = pipeline.createProject("bystander");
        pipeline.start();
        // The registry is followed asynchronously: both keys work once "[]" gets 400 instead of 401.
        for (ProjectAdmin.NewProject project : List.of(attacker, bystander)) {
            assertEquals(400, Await.until(Duration.ofSeconds(30), 400, () -> post(project, "transaction", "[]").statusCode()));
        }
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void everyHostileValueIsRefusedOrStoredAndNeverStopsAnotherTenant() throws Exception {
        Map<String, Answer> hostile = new LinkedHashMap<>(); // event id → what the gateway answered
        List<String> ordinary = new ArrayList<>();
        String now = Instant.now().toString();
        for (String kind : List.of("transaction", "project")) {
            List<String> fields = kind.equals("transaction") ? TRANSACTION_FIELDS : ERROR_FIELDS;
            for (String field : fields) {
                for (Map.Entry<String, String> value : hostileValues(field).entrySet()) {
                    String eventId = newEventId();
                    String body = withValue(baseEvent(kind, eventId, now), field, value.getValue());
                    HttpResponse<String> answer = post(attacker, kind, body);
                    String what = kind + " " + field + " = " + value.getKey();
                    hostile.put(eventId, new Answer(what, answer.statusCode(), answer.body()));
                    assertTrue(answer.statusCode() == 200 || (answer.statusCode() >= 400 && answer.statusCode() < 500),
                            what + " got " + answer.statusCode() + " " + answer.body());
                    if (answer.statusCode() != 200) {
                        assertTrue(answer.body().startsWith("{\"error\":\""), what + ": a refusal says why: " + answer.body());
                    }
                    String ordinaryId = newEventId();
                    HttpResponse<String> served = post(bystander, "transaction", baseEvent("transaction", ordinaryId, now));
                    assertEquals(200, served.statusCode(), "the other tenant is served right after " + what + ": " + served.body());
                    ordinary.add(ordinaryId);
                }
            }
        }

        // Every ordinary event arrives and is counted once: nothing stopped a partition or the sink.
        String expected = ordinary.size() + "\t" + ordinary.size();
        assertEquals(expected, Await.until(Duration.ofSeconds(120), expected, () -> ClickHouseQuery.run(engines,
                "SELECT (SELECT count() FROM " + DB + ".transactions FINAL WHERE project = {p:String}),"
                        + " (SELECT sum(requests) FROM " + DB + ".traffic_1m FINAL WHERE project = {p:String})",
                Map.of("p", bystander.token()))), "ordinary events of the other tenant");

        // Every accepted hostile event is in ClickHouse or in the dead letters, with a reason.
        Set<String> accepted = hostile.entrySet().stream().filter(e -> e.getValue().status() == 200)
                .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
        // Wait, then look: the assertion below names what each unaccounted event was.
        Set<String> unaccounted = Await.waitThenLook(Duration.ofSeconds(60), Set.of(), () -> unaccounted(accepted));
        assertEquals(Set.of(), unaccounted, () -> "accepted but neither stored nor dead-lettered: " + unaccounted.stream()
                .map(id -> hostile.get(id).what()).toList());
        System.out.println("poison inputs: " + hostile.size() + " sent, " + accepted.size() + " accepted and accounted for, "
                + (hostile.size() - accepted.size()) + " refused with 4xx; " + ordinary.size() + " ordinary events of another"
                + " tenant all counted once");
    }

    /** Accepted ids found neither in the history tables nor in the dead-letter topic. */
    private static Set<String> unaccounted(Set<String> accepted) {
        Set<String> missing = new TreeSet<>(accepted);
        String stored = ClickHouseQuery.run(engines, "SELECT event_id FROM " + DB + ".transactions FINAL WHERE project = {p:String}"
                + " UNION ALL SELECT event_id FROM " + DB + ".errors FINAL WHERE project = {p:String}", Map.of("p", attacker.token()));
        missing.removeAll(List.of(stored.split("\n")));
        if (!missing.isEmpty()) {
            for (ConsumerRecord<byte[], byte[]> deadLetter : KafkaRecords.find(engines, "poison.dead-letters", Integer.MAX_VALUE,
                    Duration.ofSeconds(2), record -> true)) {
                String reason = KafkaRecords.header(deadLetter, "sluice.dead_letter.reason");
                String text = deadLetter.value() == null ? "" : new String(deadLetter.value(), StandardCharsets.UTF_8);
                if (reason != null && !reason.isBlank()) {
                    missing.removeIf(id -> id.equals(KafkaRecords.header(deadLetter, "sluice.event_id")) || text.contains(id));
                }
            }
        }
        return missing;
    }

    /** The hostile values, as JSON text: strings that are valid JSON but not valid Unicode, huge, deep or odd. */
    private static Map<String, String> hostileValues(String field) {
        int depth = field.split("/").length - 1; // containers the field already sits in, the root included
        Map<String, String> values = new LinkedHashMap<>();
        values.put("lone high surrogate", "\"GET /\\ud800x\"");
        values.put("lone low surrogate", "\"\\udc00\"");
        values.put("NUL", "\"a\\u0000b\"");
        values.put("U+FFFF", "\"\\uffff\"");
        values.put("string up to the body limit", "\"" + "x".repeat(MAX_BODY_BYTES - 2_048) + "\"");
        values.put("nesting to the depth limit", "[".repeat(200 - depth) + "]".repeat(200 - depth));
        values.put("10k-element array", "[" + "\"a\",".repeat(9_999) + "\"a\"]");
        values.put("1e308", "1e308");
        values.put("-0", "-0");
        return values;
    }

    private static String baseEvent(String kind, String eventId, String now) {
        String context = "\"sdk\": {\"name\": \"sentry.python\", \"version\": \"2.19.0\"},"
                + " \"user\": {\"id\": \"account-7\"}, \"environment\": \"production\",";
        if (kind.equals("transaction")) {
            return "{\"event_id\": \"" + eventId + "\", \"transaction\": \"GET /poison\", \"sent_at\": \"" + now + "\","
                    + " \"timestamp\": \"" + now + "\", " + context + " \"tags\": {\"http.status_code\": 200},"
                    + " \"contexts\": {\"runtime\": {\"name\": \"CPython\", \"version\": \"3.12\"},"
                    + " \"os\": {\"name\": \"Linux\", \"version\": \"6.1\"},"
                    + " \"trace\": {\"data\": {\"url\": \"https://shop.example/poison\", \"method\": \"GET\"}}},"
                    + " \"request\": {\"url\": \"https://shop.example/poison\", \"method\": \"GET\"}}";
        }
        return "{\"event_id\": \"" + eventId + "\", \"timestamp\": \"" + now + "\", \"level\": \"error\", \"message\": \"boom\", "
                + context + " \"contexts\": {\"runtime\": {\"name\": \"CPython\", \"version\": \"3.12\"},"
                + " \"os\": {\"name\": \"Linux\", \"version\": \"6.1\"}},"
                + " \"exception\": {\"values\": [{\"type\": \"ValueError\", \"value\": \"bad input\","
                + " \"stacktrace\": {\"frames\": [{\"function\": \"handle\", \"filename\": \"app.py\", \"lineno\": 3}]}}]},"
                + " \"request\": {\"url\": \"https://shop.example/poison\", \"method\": \"POST\","
                + " \"headers\": {\"user-agent\": [\"curl/8.5\"]}}}";
    }

    /** The event with the field at {@code pointer} replaced by {@code jsonValue}, kept as written (escapes and all). */
    private static String withValue(String event, String pointer, String jsonValue) throws Exception {
        JsonNode tree = JSON.readTree(event);
        JsonPointer at = JsonPointer.compile(pointer);
        JsonNode parent = tree.at(at.head());
        if (parent instanceof ObjectNode object) {
            assertTrue(object.has(at.last().getMatchingProperty()), pointer);
            object.set(at.last().getMatchingProperty(), TextNode.valueOf(PLACEHOLDER));
        } else if (parent instanceof ArrayNode array) {
            array.set(at.last().getMatchingIndex(), TextNode.valueOf(PLACEHOLDER));
        } else {
            throw new IllegalArgumentException("no field " + pointer + " in the base event");
        }
        return JSON.writeValueAsString(tree).replace('"' + PLACEHOLDER + '"', jsonValue);
    }

    private static HttpResponse<String> post(ProjectAdmin.NewProject project, String endpoint, String body) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pipeline.port() + "/api/v1/"
                            + project.token() + "/" + endpoint))
                    .header("Authorization", "Bearer " + project.key()).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError("no answer to a request of " + body.length() + " bytes: " + e, e);
        }
    }

    private static String newEventId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    private record Answer(String what, int status, String body) {
    }
}
