package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.testkit.OtelSpans;

class TraceRequestDecoderTest {
    private static final TraceRequestDecoder DECODER = new TraceRequestDecoder(10_000);
    private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
    private static final String SPAN_ID = "eee19b7ec3c1b174";

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The spans of a body as the gateway reads them, one at a time. */
    private static List<OtlpSpan> read(TraceRequestDecoder decoder, byte[] body, OtlpFormat format) {
        List<OtlpSpan> spans = new ArrayList<>();
        decoder.forEachSpan(body, format, HeldBytes.NONE, spans::add);
        return spans;
    }

    private static List<Span> spans(byte[] body, OtlpFormat format) {
        return read(DECODER, body, format).stream().map(otlp -> otlp.span).toList();
    }

    private static Span onlySpan(byte[] body, OtlpFormat format) {
        List<Span> spans = spans(body, format);
        assertEquals(1, spans.size());
        return spans.get(0);
    }

    @Test
    void theSdksProtobufAndJsonBodiesOfTheSameSpansDecodeToTheSameSpansAndResource() {
        try (OtelSpans sdk = new OtelSpans(io.opentelemetry.api.common.Attributes.of(
                AttributeKey.stringKey("service.name"), "shop"))) {
            io.opentelemetry.api.trace.Span span = sdk.tracer().spanBuilder("GET /users/{id}").setSpanKind(SpanKind.SERVER)
                    .setStartTimestamp(1_764_000_000_123_456_789L, TimeUnit.NANOSECONDS).startSpan();
            span.setAttribute("http.request.method", "GET");
            span.setAttribute("http.response.status_code", 200L);
            span.setAttribute(AttributeKey.doubleArrayKey("weights"), java.util.List.of(0.5, 1.5));
            span.addEvent("exception", io.opentelemetry.api.common.Attributes.of(AttributeKey.stringKey("exception.type"), "E"));
            span.end(1_764_000_000_223_456_789L, TimeUnit.NANOSECONDS);

            List<OtlpSpan> fromProtobuf = read(DECODER, OtelSpans.protobuf(sdk.finished()), OtlpFormat.PROTOBUF);
            List<OtlpSpan> fromJson = read(DECODER, OtelSpans.json(sdk.finished()), OtlpFormat.JSON);

            assertEquals(1, fromJson.size());
            assertEquals(fromProtobuf.get(0).span, fromJson.get(0).span);
            assertEquals("shop", fromJson.get(0).resource.text("service.name"));
            assertEquals("shop", fromProtobuf.get(0).resource.text("service.name"));
            assertEquals(1_764_000_000_223_456_789L, fromJson.get(0).span.getEndTimeUnixNano());
            assertEquals(span.getSpanContext().getTraceId(), HexFormat.of().formatHex(fromJson.get(0).span.getTraceId().toByteArray()));
        }
    }

    @Test
    void jsonIdsAreHexIntegersMayBeStringsAndEnumsIntegers() {
        Span span = onlySpan(utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{
                  "traceId": "%s", "spanId": "%s", "name": "GET /", "kind": 2,
                  "startTimeUnixNano": "1764000000123456789", "endTimeUnixNano": 1764000000223456789,
                  "attributes": [{"key": "http.response.status_code", "value": {"intValue": "503"}}],
                  "status": {"code": 2}
                }]}]}]}""".formatted(TRACE_ID, SPAN_ID)), OtlpFormat.JSON);

        assertEquals(TRACE_ID, HexFormat.of().formatHex(span.getTraceId().toByteArray()));
        assertEquals(SPAN_ID, HexFormat.of().formatHex(span.getSpanId().toByteArray()));
        assertEquals(Span.SpanKind.SPAN_KIND_SERVER, span.getKind());
        assertEquals(1_764_000_000_123_456_789L, span.getStartTimeUnixNano());
        assertEquals(503, span.getAttributes(0).getValue().getIntValue());
        assertEquals(2, span.getStatus().getCodeValue());
    }

    @Test
    void jsonFieldNamesAsInTheProtoFileAreReadToo() {
        Span span = onlySpan(utf8("""
                {"resource_spans": [{"scope_spans": [{"spans": [{
                  "trace_id": "%s", "span_id": "%s", "parent_span_id": "%s", "kind": "SPAN_KIND_CLIENT",
                  "start_time_unix_nano": "1"}]}]}]}""".formatted(TRACE_ID, SPAN_ID, SPAN_ID)), OtlpFormat.JSON);

        assertEquals(SPAN_ID, HexFormat.of().formatHex(span.getParentSpanId().toByteArray()));
        assertEquals(Span.SpanKind.SPAN_KIND_CLIENT, span.getKind());
        assertEquals(1L, span.getStartTimeUnixNano());
    }

    @Test
    void unknownJsonFieldsAreIgnored() {
        Span span = onlySpan(utf8("""
                {"future": {"deep": [1, 2]}, "resourceSpans": [{"scopeSpans": [{"spans": [{
                  "traceId": "%s", "spanId": "%s", "newField": "x", "name": "n"}]}]}]}""".formatted(TRACE_ID, SPAN_ID)),
                OtlpFormat.JSON);

        assertEquals("n", span.getName());
    }

    @Test
    void jsonIdsThatAreNotHexAreRefusedWith400() {
        Rejection refused = assertThrows(Rejection.class, () -> spans(utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "W46/95gDgQPSabYzgT/GDA=="}]}]}]}"""), OtlpFormat.JSON));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("'traceId' must be hex"), refused.getMessage());
    }

    @Test
    void protobufWhoseLengthRunsPastTheBodyIsRefusedWith400() {
        byte[] body = request(span("GET /")).toByteArray();
        body[1] = (byte) 0x7f; // the first ResourceSpans claims 127 bytes, the body has fewer

        Rejection refused = assertThrows(Rejection.class, () -> spans(body, OtlpFormat.PROTOBUF));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("input ended unexpectedly"), refused.getMessage());
    }

    @Test
    void protobufWithALengthOfTwoGigabytesIsRefusedWith400WithoutAllocatingIt() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CodedOutputStream coded = CodedOutputStream.newInstance(out);
        coded.writeTag(1, 2); // resource_spans, length-delimited
        coded.writeUInt32NoTag(Integer.MAX_VALUE);
        coded.flush();

        Rejection refused = assertThrows(Rejection.class, () -> spans(out.toByteArray(), OtlpFormat.PROTOBUF));

        assertEquals(400, refused.status());
    }

    @Test
    void protobufWithInvalidUtf8IsRefusedWith400() {
        byte[] body = request(span("GET \u00e9")).toByteArray();
        int at = indexOf(body, new byte[] {(byte) 0xc3, (byte) 0xa9});
        body[at] = (byte) 0xff;

        Rejection refused = assertThrows(Rejection.class, () -> spans(body, OtlpFormat.PROTOBUF));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("UTF-8"), refused.getMessage());
    }

    @Test
    void jsonWithInvalidUtf8IsRefusedWith400() {
        byte[] body = utf8("{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"name\": \"GET \u00e9\"}]}]}]}");
        body[indexOf(body, new byte[] {(byte) 0xc3, (byte) 0xa9})] = (byte) 0xff;

        Rejection refused = assertThrows(Rejection.class, () -> spans(body, OtlpFormat.JSON));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("UTF-8"), refused.getMessage());
    }

    @Test
    void jsonTextWithALoneSurrogateIsRefusedWith400() {
        Rejection refused = assertThrows(Rejection.class, () -> spans(utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "GET /\\ud800"}]}]}]}"""), OtlpFormat.JSON));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("'name' is not valid Unicode"), refused.getMessage());
    }

    @Test
    void aJsonIntegerWithAHugeExponentIsRefusedWith400BeforeItIsExpanded() {
        for (String time : List.of("\"1e100000000\"", "1e100000000", "1.5e300")) {
            // Expanded, a hundred-million-digit integer takes minutes: a generous bound, not a timing.
            Rejection refused = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                    () -> assertThrows(Rejection.class, () -> spans(utf8("""
                            {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "GET /", "startTimeUnixNano": %s}]}]}]}"""
                            .formatted(time)), OtlpFormat.JSON)));

            assertEquals(400, refused.status());
            assertTrue(refused.getMessage().length() < 200, refused.getMessage().length() + " characters"); // not the number echoed
        }
    }

    @Test
    void aNegativeExponentIsRefusedBeforeItIsExpanded() {
        // Expanded to check it is an integer, 1e-60000000 took 43 s: the bound is generous, not a timing.
        for (String field : List.of("startTimeUnixNano", "kind")) {
            for (String number : List.of("1e-60000000", "\"1e-60000000\"")) {
                Rejection refused = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                        () -> assertThrows(Rejection.class, () -> spans(utf8("""
                                {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "GET /", "%s": %s}]}]}]}"""
                                .formatted(field, number)), OtlpFormat.JSON)), field + ": " + number);

                assertEquals(400, refused.status());
                assertTrue(refused.getMessage().contains("'" + field + "'"), refused.getMessage());
            }
        }
    }

    @Test
    void aNegativeExponentThatStillMakesAnIntegerIsRead() {
        Span span = onlySpan(utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "GET /", "startTimeUnixNano": "1500e-2",
                  "endTimeUnixNano": 0e-60000000, "kind": 20e-1}]}]}]}"""), OtlpFormat.JSON);

        assertEquals(15, span.getStartTimeUnixNano());
        assertEquals(0, span.getEndTimeUnixNano());
        assertEquals(Span.SpanKind.SPAN_KIND_SERVER, span.getKind());
    }

    @Test
    void unknownFieldsOfASpanAreNotKeptOnceItIsDecoded() throws Exception {
        byte[] spanBytes = concat(span("GET /").toByteArray(), unknownVarints(1_000));

        Span decoded = onlySpan(lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, spanBytes))), OtlpFormat.PROTOBUF);

        assertEquals(0, decoded.getUnknownFields().asMap().size());
        assertEquals(span("GET /"), decoded);
    }

    @Test
    void everyFieldOfASpanIsChargedItsBytesAndAFieldsCostIncludingVarintsFixedOnesAndGroups() throws Exception {
        InFlightBudget.Reservation reservation = reservation(1 << 30);
        ByteArrayOutputStream unknown = new ByteArrayOutputStream();
        CodedOutputStream coded = CodedOutputStream.newInstance(unknown);
        coded.writeFixed64(1001, 7); // 2 bytes of tag, 8 of value
        coded.writeFixed32(1002, 7); // 4 of value
        coded.writeTag(1003, com.google.protobuf.WireFormat.WIRETYPE_START_GROUP); // a group holding one varint, 1 byte
        coded.writeUInt64(1, 1);
        coded.writeTag(1003, com.google.protobuf.WireFormat.WIRETYPE_END_GROUP);
        coded.flush();
        byte[] spanBytes = concat(concat(span("GET /").toByteArray(), unknownVarints(1_000)), unknown.toByteArray());
        byte[] body = lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, spanBytes)));
        List<Long> heldWhileRead = new ArrayList<>();

        DECODER.forEachSpan(body, OtlpFormat.PROTOBUF, new HeldBytes(reservation), span -> heldWhileRead.add(reservation.bytes()));

        long known = DecodedSize.MESSAGE_BYTES + 4 * DecodedSize.FIELD_BYTES + 16 + 8 + 5 + 1; // ids, name, kind
        long unknownFields = 1_000 * (DecodedSize.FIELD_BYTES + 1) + DecodedSize.FIELD_BYTES + 8 + DecodedSize.FIELD_BYTES + 4
                + DecodedSize.FIELD_BYTES + 4; // the group: its varint's tag and value, and its end tag of 2 bytes
        assertEquals(List.of(known + unknownFields), heldWhileRead);
    }

    @Test
    void aMillionEmptyScopesAllocateNothingEachWhileTheirSpansAreFound() throws Exception {
        byte[] scopes = new byte[2_000_000];
        for (int i = 0; i < scopes.length; i += 2) {
            scopes[i] = 0x12; // scope_spans, empty
        }
        byte[] body = lengthDelimited(1, concat(scopes, lengthDelimited(2, lengthDelimited(2, span("GET /").toByteArray()))));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        read(DECODER, body, OtlpFormat.PROTOBUF); // warmed up: classes loaded

        long before = threads.getCurrentThreadAllocatedBytes();
        List<OtlpSpan> spans = read(DECODER, body, OtlpFormat.PROTOBUF);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(1, spans.size());
        assertTrue(allocated < 1 << 20, allocated + " bytes allocated for a million empty scopes");
    }

    /** Fields 1000 and on, unknown to a span, each a varint of one byte. */
    private static byte[] unknownVarints(int count) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CodedOutputStream coded = CodedOutputStream.newInstance(out);
        for (int i = 0; i < count; i++) {
            coded.writeUInt64(1_000_000 + i, 1);
        }
        coded.flush();
        return out.toByteArray();
    }

    @Test
    void jsonTextWithASurrogatePairIsRead() {
        Span span = onlySpan(utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "GET /\\ud83d\\ude00"}]}]}]}"""), OtlpFormat.JSON);

        assertEquals("GET /\ud83d\ude00", span.getName());
    }

    @Test
    void protobufAttributesNestedDeeperThanTheLimitAreRefusedWith400() throws Exception {
        // Written by hand: protobuf-java itself overflows the stack serializing 1000 levels.
        byte[] value = AnyValue.newBuilder().setStringValue("bottom").build().toByteArray();
        for (int i = 0; i < 1000; i++) {
            byte[] pair = concat(KeyValue.newBuilder().setKey("k").build().toByteArray(), lengthDelimited(2, value));
            value = lengthDelimited(6, lengthDelimited(1, pair)); // AnyValue.kvlist_value { values { key, value } }
        }
        byte[] attribute = concat(KeyValue.newBuilder().setKey("deep").build().toByteArray(), lengthDelimited(2, value));
        byte[] spanBytes = concat(span("GET /").toByteArray(), lengthDelimited(9, attribute)); // Span.attributes
        byte[] body = lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, spanBytes))); // resource_spans.scope_spans.spans

        Rejection refused = assertThrows(Rejection.class, () -> spans(body, OtlpFormat.PROTOBUF));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("nest deeper than 64 levels"), refused.getMessage());
    }

    @Test
    void jsonAttributesNestedDeeperThanTheLimitAreRefusedWith400() {
        String value = "{\"kvlistValue\": {\"values\": [{\"key\": \"k\", \"value\": ".repeat(1000) + "{}" + "}]}}".repeat(1000);
        String body = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"attributes\": [{\"key\": \"deep\", \"value\": "
                + value + "}]}]}]}]}";

        Rejection refused = assertThrows(Rejection.class, () -> spans(utf8(body), OtlpFormat.JSON));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("nests too deeply"), refused.getMessage());
    }

    @Test
    void attributesNestedWithinTheLimitAreRead() {
        // 3 messages a level (value, list, pair), 6 above the attribute: 51 of the 64 allowed
        Span span = span("GET /").toBuilder().addAttributes(nested(15)).build();

        assertEquals(span, onlySpan(request(span).toByteArray(), OtlpFormat.PROTOBUF));
    }

    @Test
    void aHundredThousandSpansInProtobufAreRefusedWith413() {
        ScopeSpans.Builder scope = ScopeSpans.newBuilder();
        Span span = span("GET /");
        for (int i = 0; i < 100_000; i++) {
            scope.addSpans(span);
        }
        byte[] body = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(scope)).build().toByteArray();

        Rejection refused = assertThrows(Rejection.class, () -> spans(body, OtlpFormat.PROTOBUF));

        assertEquals(413, refused.status());
        assertTrue(refused.getMessage().contains("at most 10000 spans"), refused.getMessage());
    }

    @Test
    void aHundredThousandSpansInJsonAreRefusedWith413OnceTheLimitIsPassed() {
        String span = "{\"traceId\": \"" + TRACE_ID + "\", \"spanId\": \"" + SPAN_ID + "\"}";
        // The JSON reader stops at the first span beyond the limit: the rest is never read (here, not even valid).
        String body = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [" + (span + ",").repeat(100_000) + "!";

        Rejection refused = assertThrows(Rejection.class, () -> spans(utf8(body), OtlpFormat.JSON));

        assertEquals(413, refused.status());
    }

    @Test
    void theLimitItselfIsAllowed() {
        TraceRequestDecoder two = new TraceRequestDecoder(2);
        ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span("a")).addSpans(span("b")))).build();

        assertEquals(List.of(span("a"), span("b")), read(two, request.toByteArray(), OtlpFormat.PROTOBUF).stream()
                .map(otlp -> otlp.span).toList());
    }

    @Test
    void jsonThatIsNotAnObjectIsRefusedWith400() {
        Rejection refused = assertThrows(Rejection.class, () -> spans(utf8("[]"), OtlpFormat.JSON));

        assertEquals(400, refused.status());
    }

    @Test
    void eachSpanIsHeldInTheReservationWhileItIsReadAndGivenBackAfter() {
        InFlightBudget.Reservation reservation = reservation(1 << 20);
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span("a")).addSpans(span("b")))).build().toByteArray();
        List<Long> heldWhileRead = new ArrayList<>();

        DECODER.forEachSpan(body, OtlpFormat.PROTOBUF, new HeldBytes(reservation), span -> heldWhileRead.add(reservation.bytes()));

        long one = DecodedSize.MESSAGE_BYTES + 4 * DecodedSize.FIELD_BYTES + 16 + 8 + 1 + 1; // a span, its ids, name and kind
        assertEquals(List.of(one, one), heldWhileRead);
        assertEquals(0, reservation.bytes());
    }

    @Test
    void aSpanOfEmptyAttributesThatWouldNotFitItsReservationDecodedIsRefusedWith413BeforeItIsDecoded() {
        Span.Builder span = span("GET /").toBuilder();
        for (int i = 0; i < 100_000; i++) {
            span.addAttributes(KeyValue.getDefaultInstance()); // 2 bytes sent, about 100 decoded
        }
        byte[] body = request(span.build()).toByteArray();
        List<OtlpSpan> read = new ArrayList<>();

        Rejection refused = assertThrows(Rejection.class,
                () -> DECODER.forEachSpan(body, OtlpFormat.PROTOBUF, new HeldBytes(reservation(4 << 20)), read::add));

        assertEquals(413, refused.status(), body.length + " bytes sent");
        assertEquals(List.of(), read);
    }

    @Test
    void jsonOfEmptyAttributesThatWouldNotFitItsReservationDecodedIsRefusedWith413() {
        String body = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"attributes\": [" + "{},".repeat(100_000) + "{}]}]}]}]}";

        Rejection refused = assertThrows(Rejection.class,
                () -> DECODER.forEachSpan(utf8(body), OtlpFormat.JSON, new HeldBytes(reservation(4 << 20)), span -> { }));

        assertEquals(413, refused.status());
    }

    @Test
    void aSpanWhoseLengthRunsPastItsScopeIsRefusedWith400() throws Exception {
        byte[] lying = {0x12, 0x7f, 0x0a, 0x01, 0x61}; // spans, 127 bytes claimed, 3 there
        byte[] body = lengthDelimited(1, lengthDelimited(2, lying));

        Rejection refused = assertThrows(Rejection.class, () -> spans(body, OtlpFormat.PROTOBUF));

        assertEquals(400, refused.status());
        assertTrue(refused.getMessage().contains("input ended unexpectedly"), refused.getMessage());
    }

    @Test
    void aResourceSentAfterItsSpansIsStillTheirs() throws Exception {
        byte[] resource = Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                .setValue(AnyValue.newBuilder().setStringValue("shop"))).build().toByteArray();
        byte[] scope = ScopeSpans.newBuilder().addSpans(span("GET /")).build().toByteArray();
        byte[] body = lengthDelimited(1, concat(lengthDelimited(2, scope), lengthDelimited(1, resource)));

        List<OtlpSpan> spans = read(DECODER, body, OtlpFormat.PROTOBUF);

        assertEquals(1, spans.size());
        assertEquals("shop", spans.get(0).resource.text("service.name"));
    }

    @Test
    void aJsonResourceSentAfterItsSpansIsStillTheirs() {
        List<OtlpSpan> spans = read(DECODER, utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "%s", "spanId": "%s"}]}],
                  "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "shop"}}]}}]}""".formatted(TRACE_ID,
                SPAN_ID)), OtlpFormat.JSON);

        assertEquals(1, spans.size());
        assertEquals("shop", spans.get(0).resource.text("service.name"));
    }

    @Test
    void aJsonExportHoldsWhileReadAndNothingOnceRead() {
        InFlightBudget.Reservation reservation = reservation(1 << 20);
        List<Long> heldWhileRead = new ArrayList<>();

        DECODER.forEachSpan(utf8("""
                {"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "%s", "spanId": "%s"}]}]}]}""".formatted(TRACE_ID, SPAN_ID)),
                OtlpFormat.JSON, new HeldBytes(reservation), span -> heldWhileRead.add(reservation.bytes()));

        assertEquals(List.of(64L * 1024), heldWhileRead, "taken in steps of 64 KiB");
        assertEquals(0, reservation.bytes());
    }

    private static InFlightBudget.Reservation reservation(long maxBytes) {
        return new InFlightBudget(maxBytes, maxBytes, new AtomicLong()).expect(null, null, 0);
    }

    @Test
    void aContentTypeOtherThanOtlpsIsRefusedWith415() {
        assertEquals(OtlpFormat.JSON, OtlpFormat.of("application/json; charset=utf-8"));
        assertEquals(OtlpFormat.PROTOBUF, OtlpFormat.of("application/x-protobuf"));
        assertEquals(415, assertThrows(Rejection.class, () -> OtlpFormat.of("text/plain")).status());
    }

    static Span span(String name) {
        return Span.newBuilder().setTraceId(ByteString.fromHex(TRACE_ID)).setSpanId(ByteString.fromHex(SPAN_ID)).setName(name)
                .setKind(Span.SpanKind.SPAN_KIND_SERVER).build();
    }

    static ExportTraceServiceRequest request(Span span) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build();
    }

    private static KeyValue nested(int depth) {
        AnyValue value = AnyValue.newBuilder().setStringValue("bottom").build();
        for (int i = 0; i < depth; i++) {
            value = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                    .addValues(KeyValue.newBuilder().setKey("k").setValue(value))).build();
        }
        return KeyValue.newBuilder().setKey("deep").setValue(value).build();
    }

    static byte[] lengthDelimited(int field, byte[] message) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CodedOutputStream coded = CodedOutputStream.newInstance(out);
        coded.writeByteArray(field, message);
        coded.flush();
        return out.toByteArray();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
