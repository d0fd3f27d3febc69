package io.sluice.bench.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/** The request bodies the load runs send. */
public final class Payloads {
    /** Enough different bodies that no compressed Kafka batch (128 KiB, about 200 of them) repeats one. */
    public static final int VARIED = 1_024;
    /** Where an envelope's event id goes: {@link Wrk#envelopesOnNewConnections} puts a new one there for each request. */
    public static final String EVENT_ID = "{{EVENT_ID}}";

    private Payloads() {
    }

    /** A realistic transaction of about 600 bytes, as SDKs send them. */
    public static byte[] transaction() {
        return transaction("", "771a43a4192642f0b136d5159a501700", "a0cfbde2bdff3adc", 4242, 42);
    }

    /**
     * {@code count} such transactions, each with its own event id, trace and span ids, user and URL,
     * as a busy service's differ: a load that repeats one body compresses to almost nothing in Kafka.
     */
    public static List<byte[]> transactions(int count) {
        return varied(count, true);
    }

    /**
     * The same transactions without their event ids, for a load sent to the gateway round and round:
     * the gateway gives each request an id of its own, where a body sent again with its id would be
     * counted once.
     */
    public static List<byte[]> transactionsWithoutEventIds(int count) {
        return varied(count, false);
    }

    private static List<byte[]> varied(int count, boolean withEventIds) {
        Random random = new Random(count); // the same bodies in every run
        List<byte[]> bodies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String eventId = "\"event_id\": \"" + hex(random, 32) + "\", ";
            bodies.add(transaction(withEventIds ? eventId : "", hex(random, 32), hex(random, 16), random.nextInt(1_000_000),
                    random.nextInt(100_000)));
        }
        return bodies;
    }

    private static byte[] transaction(String eventId, String traceId, String spanId, int user, int path) {
        return ("{" + eventId + "\"transaction\": \"GET /api/users/{id}\", \"environment\": \"production\", \"release\": \"shop@2.14.0\","
                + " \"sent_at\": \"" + Instant.now() + "\", \"platform\": \"python\","
                + " \"tags\": {\"http.status_code\": \"200\", \"server_name\": \"web-7\"},"
                + " \"sdk\": {\"name\": \"sentry.python.django\", \"version\": \"2.19.0\"},"
                + " \"contexts\": {\"trace\": {\"trace_id\": \"" + traceId + "\", \"span_id\": \"" + spanId + "\","
                + " \"op\": \"http.server\", \"status\": \"ok\", \"data\": {\"url\": \"https://shop.example/api/users/" + path
                + "\", \"method\": \"GET\"}},"
                + " \"runtime\": {\"name\": \"CPython\", \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": \"6.1.0\"}},"
                + " \"user\": {\"id\": \"account-" + user + "\"}, \"request\": {\"url\": \"https://shop.example/api/users/" + path
                + "\", \"method\": \"GET\"}}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The bench's transaction as {@code @sentry/node} 8 sends it: an envelope of one transaction item,
     * its event id ({@link #EVENT_ID}) in the envelope's header and in the event, which ends at
     * {@code at} after 125 ms (an event's time within the processor's horizon).
     */
    public static String nodeTransactionEnvelope(Instant at) {
        String end = String.format(java.util.Locale.ROOT, "%.3f", at.toEpochMilli() / 1000.0);
        String start = String.format(java.util.Locale.ROOT, "%.3f", at.toEpochMilli() / 1000.0 - 0.125);
        return "{\"event_id\":\"" + EVENT_ID + "\",\"sent_at\":\"" + at + "\",\"sdk\":{\"name\":\"sentry.javascript.node\","
                + "\"version\":\"8.40.0\"},\"trace\":{\"environment\":\"production\",\"trace_id\":\"771a43a4192642f0b136d5159a501700\","
                + "\"sample_rate\":\"1\",\"transaction\":\"GET /api/users/:id\",\"sampled\":\"true\"}}\n"
                + "{\"type\":\"transaction\"}\n"
                + "{\"type\":\"transaction\",\"event_id\":\"" + EVENT_ID + "\",\"platform\":\"node\",\"environment\":\"production\","
                + "\"release\":\"shop@2.14.0\",\"transaction\":\"GET /api/users/:id\",\"transaction_info\":{\"source\":\"route\"},"
                + "\"start_timestamp\":" + start + ",\"timestamp\":" + end + ",\"contexts\":{\"trace\":{\"trace_id\":"
                + "\"771a43a4192642f0b136d5159a501700\",\"span_id\":\"a0cfbde2bdff3adc\",\"op\":\"http.server\",\"status\":\"ok\","
                + "\"origin\":\"auto.http.otel.http\",\"data\":{\"url\":\"https://shop.example/api/users/42\",\"http.method\":\"GET\","
                + "\"http.response.status_code\":200}},\"runtime\":{\"name\":\"node\",\"version\":\"v20.18.0\"},"
                + "\"os\":{\"kernel_version\":\"6.1.0\"}},\"tags\":{\"http.status_code\":\"200\",\"server_name\":\"web-7\"},"
                + "\"spans\":[],\"measurements\":{},\"sdk\":{\"name\":\"sentry.javascript.node\",\"version\":\"8.40.0\","
                + "\"integrations\":[\"Http\",\"Express\"],\"packages\":[{\"name\":\"npm:@sentry/node\",\"version\":\"8.40.0\"}]},"
                + "\"user\":{\"id\":\"account-4242\"},\"request\":{\"url\":\"https://shop.example/api/users/42\",\"method\":\"GET\"}}";
    }

    private static String hex(Random random, int digits) {
        StringBuilder hex = new StringBuilder(digits);
        for (int i = 0; i < digits; i++) {
            hex.append(Character.forDigit(random.nextInt(16), 16));
        }
        return hex.toString();
    }

    /** Each body gzipped, in the same order. */
    public static List<byte[]> gzip(List<byte[]> bodies) throws IOException {
        List<byte[]> gzipped = new ArrayList<>(bodies.size());
        for (byte[] body : bodies) {
            gzipped.add(gzip(body));
        }
        return gzipped;
    }

    public static byte[] gzip(byte[] body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(body);
        }
        return out.toByteArray();
    }
}
