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
