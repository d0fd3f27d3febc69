package io.sluice.processor.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.sluice.events.EventHeaders;

/**
 * The transaction parser reads only the fields it keeps, in one pass; the facts (or the reasons
 * for the dead letters) must be exactly those it made from the whole tree, for every input.
 */
class PrunedParseEqualsWholeTreeTest {
    /** The SDK payloads the gateway's tests send (real SDKs' shapes). */
    private static final Path SDK_PAYLOADS = Path.of("..", "gateway", "src", "test", "resources", "sdk-payloads");
    private static final String[] NAMES = {"transaction", "environment", "tags", "contexts", "trace", "data", "method",
            "http.request.method", "http.method", "url", "url.full", "http.url", "http.response.status_code", "response",
            "status_code", "request", "user", "id", "sdk", "name", "version", "runtime", "os", "http.status_code",
            "other", "", "server_name", "0", "1", "trace_id"};
    private static final String[] STRINGS = {"", " ", "GET", "get /x", "POST /a/b?c", "production", "200", " 404 ", "1000",
            "99", "600", "abc", "https://shop.example/api/users/42?q=1#f", "/x/y", "//host/x", "http.status_code",
            "\\u00e9t\\u00e9", "\\ud800", "\\udc00x", "\\ud83d\\ude00", "\\\"quoted\\\"", "back\\\\slash", "\\n\\t\\u0000",
            "中文", "😀", "null", "true"};
    private static final String[] NUMBERS = {"0", "-0", "200", "404", "599", "600", "99", "-1", "2147483647",
            "2147483648", "9223372036854775807", "9223372036854775808", "123456789012345678901234567890", "200.0",
            "2e2", "1.5", "-0.0", "1e400", "1E-400", "0.1", "404.5", "3.0e2"};

    @Test
    void theSdkPayloadsGiveTheSameFacts() throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(SDK_PAYLOADS)) {
            files = listed.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 10, "the SDK payloads are at " + SDK_PAYLOADS.toAbsolutePath());
        for (Path file : files) {
            assertSame(Files.readAllBytes(file), file.getFileName().toString());
        }
    }

    @Test
    void tenThousandRandomEventsGiveTheSameFactsOrTheSameReasons() {
        Random random = new Random(18);
        for (int i = 0; i < 10_000; i++) {
            StringBuilder json = new StringBuilder();
            object(random, json, 0);
            assertSame(mutate(random, json.toString()).getBytes(StandardCharsets.UTF_8), json.toString());
        }
    }

    @Test
    void hostileInputsGiveTheSameReasons() {
        String deep = "{\"contexts\": " + "[".repeat(300) + "]".repeat(300) + "}";
        String deepAtTheLimit = "{\"other\": " + "{\"a\": ".repeat(198) + "1" + "}".repeat(198) + ", \"transaction\": \"t\"}";
        String deepBeyond = "{\"other\": " + "{\"a\": ".repeat(200) + "1" + "}".repeat(200) + ", \"transaction\": \"t\"}";
        String longNumber = "{\"other\": " + "9".repeat(1500) + ", \"transaction\": \"t\"}";
        String longFloat = "{\"other\": 0." + "9".repeat(1500) + ", \"transaction\": \"t\"}";
        String longKeptNumber = "{\"user\": {\"id\": " + "9".repeat(1500) + "}}";
        String huge = "{\"transaction\": \"" + "x".repeat(900_000) + "\", \"other\": \"" + "y".repeat(900_000) + "\"}";
        for (String json : List.of(deep, deepAtTheLimit, deepBeyond, longNumber, longFloat, longKeptNumber, huge,
                "", " ", "null", "[]", "[{}]", "\"text\"", "42", "{}", "{} trailing", "{}{\"x\"", "{\"transaction\": \"t\"} [",
                "{\"transaction\": }", "{\"transaction\": \"t\"", "{\"transaction\": \"t\",}", "{'transaction': 't'}",
                "{\"tags\": [[\"http.status_code\", \"500\"], [\"http.status_code\", 201]]}",
                "{\"tags\": [[\"http.status_code\"], [\"http.status_code\", 201, 3], {\"x\": 1}]}",
                "{\"tags\": {\"http.status_code\": {\"nested\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]}}}",
                "{\"tags\": {\"http.status_code\": [\"200\"]}}", "{\"tags\": {\"http.status_code\": null}}",
                "{\"contexts\": {\"response\": {\"status_code\": true}}}",
                "{\"contexts\": {\"trace\": {\"data\": {\"url\": \"/a\"}}}, \"contexts\": {\"os\": {\"name\": \"Linux\"}}}",
                "{\"contexts\": {\"trace\": {\"data\": {\"url\": \"/a\"}}}, \"contexts\": 5}",
                "{\"user\": {\"id\": 1}, \"user\": {\"id\": 2.50}, \"user\": {\"name\": 3}}",
                "{\"sdk\": {\"name\": [\"x\"], \"name\": \"y\", \"version\": {}}}")) {
            assertSame(json.getBytes(StandardCharsets.UTF_8), abbreviate(json));
        }
        byte[] badUtf8InASkippedString = "{\"other\": \"a\u00e9b\", \"transaction\": \"t\"}".getBytes(StandardCharsets.UTF_8);
        badUtf8InASkippedString[12] = (byte) 0xC3;
        badUtf8InASkippedString[13] = (byte) 0x28;
        assertSame(badUtf8InASkippedString, "invalid UTF-8 in a string not kept");
        byte[] badUtf8InAKeptString = "{\"transaction\": \"a\u00e9b\"}".getBytes(StandardCharsets.UTF_8);
        badUtf8InAKeptString[18] = (byte) 0xFF;
        assertSame(badUtf8InAKeptString, "invalid UTF-8 in a kept string");
    }

    private static void assertSame(byte[] json, String what) {
        RecordHeaders headers = new RecordHeaders();
        EventHeaders.put(headers, EventHeaders.EVENT_ID, "e1");
        EventHeaders.put(headers, EventHeaders.PROJECT, "shop");
        EventHeaders.put(headers, EventHeaders.RECEIVED_AT, "1795000000000");
        assertEquals(outcome(() -> TransactionParser.parseWholeTree(json, headers, 7, 1, 2)),
                outcome(() -> TransactionParser.parse(json, headers, 7, 1, 2)), what);
    }

    private static Object outcome(java.util.function.Supplier<Object> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static void object(Random random, StringBuilder json, int depth) {
        json.append('{');
        int fields = random.nextInt(depth == 0 ? 8 : 5);
        for (int i = 0; i < fields; i++) {
            if (i > 0) {
                json.append(", ");
            }
            json.append('"').append(NAMES[random.nextInt(NAMES.length)]).append("\": ");
            value(random, json, depth + 1);
        }
        json.append('}');
    }

    private static void value(Random random, StringBuilder json, int depth) {
        int kind = random.nextInt(depth > 5 ? 6 : 10);
        switch (kind) {
            case 0, 1, 2 -> json.append('"').append(STRINGS[random.nextInt(STRINGS.length)]).append('"');
            case 3 -> json.append(NUMBERS[random.nextInt(NUMBERS.length)]);
            case 4 -> json.append(random.nextBoolean() ? "true" : random.nextBoolean() ? "false" : "null");
            case 5 -> json.append('"').append(STRINGS[random.nextInt(STRINGS.length)]).append('"');
            case 6, 7, 8 -> object(random, json, depth);
            default -> {
                json.append('[');
                int items = random.nextInt(4);
                for (int i = 0; i < items; i++) {
                    if (i > 0) {
                        json.append(", ");
                    }
                    if (random.nextInt(3) == 0) { // a [key, value] pair, as tags may come
                        json.append("[\"").append(random.nextBoolean() ? "http.status_code" : "x").append("\", ");
                        value(random, json, depth + 1);
                        json.append(']');
                    } else {
                        value(random, json, depth + 1);
                    }
                }
                json.append(']');
            }
        }
    }

    /** Most events as made; some cut short, with a byte changed, or with something after them. */
    private static String mutate(Random random, String json) {
        return switch (random.nextInt(20)) {
            case 0 -> json.substring(0, random.nextInt(json.length()));
            case 1 -> {
                int at = random.nextInt(json.length());
                yield json.substring(0, at) + "\",:{}[]x\\1".charAt(random.nextInt(10)) + json.substring(at + 1);
            }
            case 2 -> json + (random.nextBoolean() ? " {" : " garbage");
            default -> json;
        };
    }

    private static String abbreviate(String json) {
        return json.length() <= 80 ? json : json.substring(0, 80) + "…";
    }
}
