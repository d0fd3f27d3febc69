package io.sluice.bench.scenario;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;

import io.opentelemetry.proto.trace.v1.Span;

/**
 * The OTLP trace exports that cost a gateway most for the fewest bytes sent (issue 38, findings 1, 2
 * and 5), for the soak: each one is valid enough to pass the head and reach the door's decoder.
 */
final class OtlpAttacks {
    /** No OTLP message has a field numbered this high (and protobuf reserves 19,000–19,999). */
    private static final int FIRST_UNKNOWN_FIELD = 20_000;
    private static final int RESOURCE_SPANS = 1;
    private static final int SCOPE_SPANS = 2;
    private static final int SPANS = 2;

    private OtlpAttacks() {
    }

    /** 164 bytes of OTLP/JSON whose start time is {@code 1e-60000000}: a ten-to-the-sixty-million integer if expanded. */
    static byte[] negativeExponent() {
        return ("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"5b8efff798038103d269b633813fc60c\","
                + "\"spanId\":\"eee19b7ec3c1b174\",\"kind\":2,\"startTimeUnixNano\":1e-60000000}]}]}]}")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A protobuf export of {@code spans} spans, each followed by {@code fieldsPerSpan} distinct
     * unknown varint fields (about 4.7 bytes each): 3 spans of a million fields are 14.7 MB, 3.3 MB
     * gzipped.
     */
    static byte[] unknownFields(int spans, int fieldsPerSpan) {
        ByteArrayOutputStream scope = new ByteArrayOutputStream();
        try {
            for (int i = 0; i < spans; i++) {
                byte[] span = withUnknownFields(serverSpan(i).toByteArray(), fieldsPerSpan);
                writeMessage(scope, SPANS, span);
            }
            ByteArrayOutputStream resource = new ByteArrayOutputStream();
            writeMessage(resource, SCOPE_SPANS, scope.toByteArray());
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            writeMessage(request, RESOURCE_SPANS, resource.toByteArray());
            return request.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** OTLP/JSON of {@code spans} server spans with distinct ids, about 1.2 KB each: 10,000 are 12 MB, about 0.3 MB gzipped. */
    static byte[] largeJsonExport(int spans) {
        StringBuilder json = new StringBuilder(spans * 1_300).append("{\"resourceSpans\":[{\"resource\":{\"attributes\":[")
                .append("{\"key\":\"service.name\",\"value\":{\"stringValue\":\"checkout\"}}]},\"scopeSpans\":[{\"spans\":[");
        long start = System.currentTimeMillis() * 1_000_000L;
        String traceId = hex(16);
        for (int i = 0; i < spans; i++) {
            json.append(i == 0 ? "" : ",").append("{\"traceId\":\"").append(traceId).append("\",\"spanId\":\"").append(hex(8))
                    .append("\",\"name\":\"GET /api/orders/{id}\",\"kind\":2,\"startTimeUnixNano\":\"").append(start + i)
                    .append("\",\"endTimeUnixNano\":\"").append(start + i + 4_000_000).append("\",\"attributes\":[")
                    .append(attribute("http.request.method", "GET")).append(',')
                    .append(attribute("http.route", "/api/orders/{id}")).append(',')
                    .append(attribute("url.full", "https://shop.example/api/orders/" + i + "?page=2&sort=desc")).append(',')
                    .append(attribute("user_agent.original", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                            + "Chrome/131.0.0.0 Safari/537.36")).append(',')
                    .append(attribute("server.address", "shop.example")).append(',')
                    .append(attribute("network.protocol.version", "1.1")).append(',')
                    .append(attribute("client.address", "203.0.113." + (i % 250))).append(',')
                    .append("{\"key\":\"http.response.status_code\",\"value\":{\"intValue\":\"200\"}}")
                    .append("],\"status\":{\"code\":1}}");
        }
        return json.append("]}]}]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String attribute(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
    }

    private static Span serverSpan(int i) {
        long start = System.currentTimeMillis() * 1_000_000L + i;
        return Span.newBuilder().setTraceId(ByteString.fromHex(hex(16))).setSpanId(ByteString.fromHex(hex(8)))
                .setName("GET /unknown-fields").setKind(Span.SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(start).setEndTimeUnixNano(start + 1_000_000).build();
    }

    private static byte[] withUnknownFields(byte[] span, int fields) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(span.length + fields * 5);
        bytes.write(span);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (int field = FIRST_UNKNOWN_FIELD; field < FIRST_UNKNOWN_FIELD + fields; field++) {
            out.writeUInt64(field, 1);
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static void writeMessage(ByteArrayOutputStream to, int field, byte[] message) throws IOException {
        CodedOutputStream out = CodedOutputStream.newInstance(to);
        out.writeByteArray(field, message);
        out.flush();
    }

    private static String hex(int bytes) {
        StringBuilder hex = new StringBuilder(bytes * 2);
        for (int i = 0; i < bytes; i++) {
            hex.append(String.format("%02x", ThreadLocalRandom.current().nextInt(256)));
        }
        return hex.toString();
    }
}
