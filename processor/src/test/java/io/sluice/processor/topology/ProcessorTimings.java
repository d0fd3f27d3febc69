package io.sluice.processor.topology;

import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;

import io.sluice.events.EventHeaders;
import io.sluice.processor.parse.RecordsReadFromJson;
import io.sluice.processor.parse.TransactionParser;
import io.sluice.processor.rows.TrafficCounts;
import io.sluice.processor.rows.TrafficKey;
import io.sluice.processor.rows.TransactionFact;

/**
 * A measurement, not a test: single-thread µs per operation of the processor's per-record work
 * on the bench's transaction, after warm-up: the JSON serdes beside what the topology uses now.
 * Run its main with the processor's test classpath.
 */
final class ProcessorTimings {
    static final byte[] BODY = ("{\"transaction\": \"GET /api/users/{id}\", \"environment\": \"production\", \"release\": \"shop@2.14.0\","
            + " \"sent_at\": \"2026-11-22T10:15:00.123Z\", \"platform\": \"python\","
            + " \"tags\": {\"http.status_code\": \"200\", \"server_name\": \"web-7\"},"
            + " \"sdk\": {\"name\": \"sentry.python.django\", \"version\": \"2.19.0\"},"
            + " \"contexts\": {\"trace\": {\"trace_id\": \"771a43a4192642f0b136d5159a501700\", \"span_id\": \"a0cfbde2bdff3adc\","
            + " \"op\": \"http.server\", \"status\": \"ok\", \"data\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}},"
            + " \"runtime\": {\"name\": \"CPython\", \"version\": \"3.12.7\"}, \"os\": {\"name\": \"Linux\", \"version\": \"6.1.0\"}},"
            + " \"user\": {\"id\": \"account-4242\"}, \"request\": {\"url\": \"https://shop.example/api/users/42\", \"method\": \"GET\"}}")
            .getBytes(StandardCharsets.UTF_8);

    private ProcessorTimings() {
    }

    public static void main(String[] args) {
        RecordHeaders headers = new RecordHeaders();
        EventHeaders.put(headers, EventHeaders.EVENT_ID, "0123456789abcdef0123456789abcdef");
        EventHeaders.put(headers, EventHeaders.PROJECT, "bench");
        EventHeaders.put(headers, EventHeaders.RECEIVED_AT, "1795000000000");
        EventHeaders.put(headers, EventHeaders.EVENT_TIME, "1795000000000");
        EventHeaders.put(headers, EventHeaders.TIME_ADJUSTED, "false");
        TransactionParser parser = new TransactionParser(new RecordsReadFromJson());
        TransactionFact fact = parser.parse(BODY, headers, 0, 1, 42);
        Serde<TransactionFact> history = JsonSerde.of(TransactionFact.class);
        Serde<TrafficKey> jsonKeys = JsonSerde.of(TrafficKey.class);
        Serde<TrafficKey> keys = MemoizedSerde.of(JsonSerde.of(TrafficKey.class));
        Serde<TrafficCounts> jsonCounts = JsonSerde.of(TrafficCounts.class);
        Serde<TrafficCounts> counts = TrafficCountsSerde.create();
        TrafficKey key = new TrafficKey("bench", "production");
        byte[] keyBytes = keys.serializer().serialize("t", key);
        TrafficCounts someCounts = new TrafficCounts(12345, 0, 12000, 0, 300, 45, 0);
        byte[] countBytes = counts.serializer().serialize("t", someCounts);
        byte[] countJson = jsonCounts.serializer().serialize("t", someCounts);
        long[] sink = new long[1];
        time("parse transaction", i -> sink[0] += parser.parse(BODY, headers, 0, 1, i).kafkaOffset());
        RecordHeaders withFields = new RecordHeaders(headers.toArray());
        try {
            withFields.add(io.sluice.events.FieldsHeader.NAME,
                    io.sluice.events.TransactionFields.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(BODY)).toHeader(BODY.length));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        time("fact from the gateway's fields", i -> sink[0] += parser.parse(BODY, withFields, 0, 1, i).kafkaOffset());
        try {
            // The whole-tree parse, where there is one (package-private in the parser: it is what the parse must equal).
            java.lang.reflect.Method whole = TransactionParser.class.getDeclaredMethod("parseWholeTree", byte[].class,
                    org.apache.kafka.common.header.Headers.class, long.class, int.class, long.class);
            whole.setAccessible(true);
            time("parse, whole tree", i -> {
                try {
                    sink[0] += ((TransactionFact) whole.invoke(null, BODY, headers, 0L, 1, (long) i)).kafkaOffset();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            });
        } catch (NoSuchMethodException before) {
            System.out.println("(no whole-tree parse beside it)");
        }
        // What the parse is made of: Jackson's tree of the body, and its tokens alone.
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        time("parse: Jackson tree only", i -> {
            try {
                sink[0] += mapper.readTree(BODY).size();
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
        time("parse: tokens only", i -> {
            try (com.fasterxml.jackson.core.JsonParser tokens = mapper.getFactory().createParser(BODY)) {
                while (tokens.nextToken() != null) {
                    sink[0]++;
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
        time("history JSON write", i -> sink[0] += history.serializer().serialize("t", fact).length);
        time("traffic key write JSON", i -> sink[0] += jsonKeys.serializer().serialize("t", key).length);
        time("traffic key read JSON", i -> sink[0] += jsonKeys.deserializer().deserialize("t", keyBytes).project().length());
        time("counts write JSON", i -> sink[0] += jsonCounts.serializer().serialize("t", someCounts).length);
        time("counts read JSON", i -> sink[0] += jsonCounts.deserializer().deserialize("t", countJson).requests());
        time("traffic key write", i -> sink[0] += keys.serializer().serialize("t", key).length);
        time("traffic key read", i -> sink[0] += keys.deserializer().deserialize("t", keyBytes).project().length());
        time("traffic counts write", i -> sink[0] += counts.serializer().serialize("t", someCounts).length);
        time("traffic counts read", i -> sink[0] += counts.deserializer().deserialize("t", countBytes).requests());
        System.out.println("(" + sink[0] + ")");
    }

    private static void time(String what, IntConsumer operation) {
        int n = 200_000;
        for (int round = 0; round < 8; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                operation.accept(i);
            }
            double micros = (System.nanoTime() - start) / 1e3 / n;
            if (round >= 5) {
                System.out.printf("%-24s %.3f µs%n", what, micros);
            }
        }
    }
}
