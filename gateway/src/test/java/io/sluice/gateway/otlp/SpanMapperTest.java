package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.events.ErrorFields;
import io.sluice.events.TransactionFields;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.validate.AcceptedEvent;
import io.sluice.gateway.validate.EventValidator;
import io.sluice.testkit.OtelSpans;

class SpanMapperTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ExportReader READER = new ExportReader(10_000);
    private static final long START = 1_764_000_000_123_456_789L;
    private static final long END = START + 125_500_000L; // 125.5 ms later
    private static final long RECEIVED = START / 1_000_000 + 60_000;
    private static final EventValidator VALIDATOR = new EventValidator(Duration.ofDays(30));

    /** The SDK's spans as the gateway reads them: through the exporter's protobuf body and the export's reader. */
    private static List<MappedSpan> mapped(OtelSpans sdk) {
        return READER.read(OtelSpans.protobuf(sdk.finished()), OtlpFormat.PROTOBUF);
    }

    private static MappedSpan only(OtelSpans sdk) {
        List<MappedSpan> spans = mapped(sdk);
        assertEquals(1, spans.size());
        return spans.get(0);
    }

    private static OtelSpans sdk() {
        return new OtelSpans(Attributes.of(AttributeKey.stringKey("service.name"), "shop",
                AttributeKey.stringKey("deployment.environment.name"), "production"));
    }

    private static io.opentelemetry.api.trace.Span serverSpan(Tracer tracer, String name) {
        return tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER).setStartTimestamp(START, TimeUnit.NANOSECONDS).startSpan();
    }

    /** A server span named for its method and route, with both as attributes. */
    private static io.opentelemetry.api.trace.Span serverSpan(Tracer tracer, String method, String route) {
        io.opentelemetry.api.trace.Span span = serverSpan(tracer, method + " " + route);
        span.setAttribute("http.request.method", method);
        span.setAttribute("http.route", route);
        return span;
    }

    private static TransactionFields transactionFields(OtlpItem item) {
        assertEquals(Endpoint.TRANSACTION, item.endpoint());
        return TransactionFields.of(tree(item));
    }

    private static ErrorFields errorFields(OtlpItem item) {
        assertEquals(Endpoint.ERROR_REPORT, item.endpoint());
        return ErrorFields.of(tree(item));
    }

    private static JsonNode tree(OtlpItem item) {
        try {
            return JSON.readTree(item.json());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aServerSpanIsOneTransactionWithMethodRouteStatusDurationAndOp() {
        try (OtelSpans sdk = sdk()) {
            io.opentelemetry.api.trace.Span span = serverSpan(sdk.tracer(), "GET /users/{id}");
            span.setAttribute("http.request.method", "GET");
            span.setAttribute("http.route", "/users/{id}");
            span.setAttribute("url.path", "/users/42");
            span.setAttribute("http.response.status_code", 404L);
            span.setAttribute("user.id", "u-7");
            span.end(END, TimeUnit.NANOSECONDS);

            MappedSpan mapped = only(sdk);

            assertEquals(MappedSpan.Kind.REQUEST, mapped.kind());
            assertEquals(1, mapped.items().size());
            TransactionFields fields = transactionFields(mapped.items().get(0));
            assertEquals("GET", fields.method());
            assertEquals("GET /users/{id}", fields.route());
            assertEquals("/users/42", fields.path());
            assertEquals(404, fields.statusCode());
            assertEquals("http.server", fields.op());
            assertEquals(125.5, fields.durationMs());
            assertEquals("production", fields.environment());
            assertEquals("u-7", fields.userId());
            assertEquals("opentelemetry.java", fields.sdkName());
            assertEquals(io.opentelemetry.sdk.common.internal.OtelVersion.VERSION, fields.sdkVersion());
            assertEquals("shop", tree(mapped.items().get(0)).at("/tags/service.name").textValue());
        }
    }

    @Test
    void theTransactionIsAcceptedByTheValidatorWithTheSpansEndAsItsTime() {
        try (OtelSpans sdk = sdk()) {
            io.opentelemetry.api.trace.Span span = serverSpan(sdk.tracer(), "GET /");
            span.setAttribute("http.request.method", "GET");
            span.setAttribute("http.response.status_code", 200L);
            span.end(END, TimeUnit.NANOSECONDS);

            AcceptedEvent event = VALIDATOR.validate(Endpoint.TRANSACTION, only(sdk).items().get(0).json(), RECEIVED);

            assertEquals(END / 1_000_000, event.eventTimeMillis());
            assertEquals(SpanEventIds.transaction(ByteString.fromHex(span.getSpanContext().getTraceId()),
                    ByteString.fromHex(span.getSpanContext().getSpanId())), event.eventId());
        }
    }

    @Test
    void theOlderSemanticConventionNamesAreReadToo() {
        Span span = TraceRequestDecoderTest.span("GET").toBuilder()
                .addAttributes(string("http.method", "POST"))
                .addAttributes(string("http.target", "/orders/17?x=1"))
                .addAttributes(integer("http.status_code", 503))
                .addAttributes(string("enduser.id", "alice"))
                .build();
        Resource resource = Resource.newBuilder().addAttributes(string("deployment.environment", "staging")).build();

        TransactionFields fields = transactionFields(only(resource, span).items().get(0));

        assertEquals("POST", fields.method());
        assertEquals("POST /orders/17", fields.transaction());
        assertEquals("POST /orders/{id}", fields.route());
        assertEquals(503, fields.statusCode());
        assertEquals("alice", fields.userId());
        assertEquals("staging", fields.environment());
    }

    @Test
    void aStatusCodeSentAsTextIsRead() {
        Span span = TraceRequestDecoderTest.span("GET /").toBuilder().addAttributes(string("http.response.status_code", "201")).build();

        assertEquals(201, transactionFields(only(Resource.getDefaultInstance(), span).items().get(0)).statusCode());
    }

    @Test
    void aStatusCodeOutOfRangeIsRefusedByTheValidatorNamingTheField() {
        Span span = TraceRequestDecoderTest.span("GET /").toBuilder().addAttributes(integer("http.response.status_code", 999)).build();
        byte[] json = only(Resource.getDefaultInstance(), span).items().get(0).json();

        Rejection refused = assertThrows(Rejection.class, () -> VALIDATOR.validate(Endpoint.TRANSACTION, json, RECEIVED));

        assertEquals("tags.http.status_code", refused.field());
    }

    @Test
    void aFullUrlGivesThePath() {
        Span span = TraceRequestDecoderTest.span("GET").toBuilder()
                .addAttributes(string("http.request.method", "GET"))
                .addAttributes(string("url.full", "https://shop.example/items/123?q=1")).build();

        TransactionFields fields = transactionFields(only(Resource.getDefaultInstance(), span).items().get(0));

        assertEquals("https://shop.example/items/123?q=1", fields.url());
        assertEquals("/items/123", fields.path());
        assertEquals("GET /items/{id}", fields.route());
    }

    @Test
    void aRootSpanWithoutKindWithHttpServerAttributesIsARequest() {
        Span span = TraceRequestDecoderTest.span("GET /").toBuilder().setKind(Span.SpanKind.SPAN_KIND_UNSPECIFIED)
                .addAttributes(string("http.request.method", "GET")).addAttributes(integer("http.response.status_code", 200)).build();

        assertEquals(MappedSpan.Kind.REQUEST, only(Resource.getDefaultInstance(), span).kind());
    }

    @Test
    void aChildSpanWithoutKindIsNotARequestEvenWithHttpAttributes() {
        Span span = TraceRequestDecoderTest.span("GET /").toBuilder().setKind(Span.SpanKind.SPAN_KIND_INTERNAL)
                .setParentSpanId(ByteString.fromHex("00000000000000aa"))
                .addAttributes(string("http.request.method", "GET")).addAttributes(integer("http.response.status_code", 200)).build();

        assertEquals(MappedSpan.Kind.NOT_STORED, only(Resource.getDefaultInstance(), span).kind());
    }

    @Test
    void aClientSpanIsNotStored() {
        try (OtelSpans sdk = sdk()) {
            io.opentelemetry.api.trace.Span span = sdk.tracer().spanBuilder("GET").setSpanKind(SpanKind.CLIENT).startSpan();
            span.setAttribute("http.request.method", "GET");
            span.setAttribute("http.response.status_code", 200L);
            span.end();

            MappedSpan mapped = only(sdk);

            assertEquals(MappedSpan.Kind.NOT_STORED, mapped.kind());
            assertEquals(List.of(), mapped.items());
        }
    }

    @Test
    void anExceptionEventIsAnErrorWithTypeMessageAndTheFrameThatRaisedIt() {
        try (OtelSpans sdk = sdk()) {
            io.opentelemetry.api.trace.Span span = serverSpan(sdk.tracer(), "POST /checkout");
            span.setAttribute("http.request.method", "POST");
            span.setAttribute("http.route", "/checkout");
            span.setAttribute("http.response.status_code", 500L);
            IllegalStateException raised = raised();
            span.recordException(raised);
            span.end(END, TimeUnit.NANOSECONDS);

            MappedSpan mapped = only(sdk);

            assertEquals(2, mapped.items().size());
            ErrorFields error = errorFields(mapped.items().get(1));
            assertEquals("java.lang.IllegalStateException", error.exceptionType());
            assertEquals("card declined", error.exceptionValue());
            assertEquals("raised (SpanMapperTest.java:" + raised.getStackTrace()[0].getLineNumber() + ")", error.topFrame());
            assertEquals("POST /checkout", error.route());
            assertEquals("production", error.environment());
            assertEquals("error", error.level());
            assertTrue(tree(mapped.items().get(1)).at("/extra/exception.stacktrace").textValue()
                    .startsWith("java.lang.IllegalStateException: card declined"));
        }
    }

    private static IllegalStateException raised() {
        return new IllegalStateException("card declined");
    }

    @Test
    void anExceptionOnASpanThatIsNotARequestIsStillAnError() {
        try (OtelSpans sdk = sdk()) {
            Tracer tracer = sdk.tracer();
            io.opentelemetry.api.trace.Span parent = serverSpan(tracer, "GET /");
            io.opentelemetry.api.trace.Span child = tracer.spanBuilder("SELECT").setSpanKind(SpanKind.CLIENT)
                    .setParent(Context.root().with(parent)).startSpan();
            child.setAttribute("http.request.method", "GET");
            child.setAttribute("url.full", "https://payments.example/charge");
            child.recordException(new java.io.IOException("connection reset"));
            child.end();

            MappedSpan mapped = only(sdk);

            assertEquals(MappedSpan.Kind.NOT_STORED, mapped.kind());
            assertEquals(1, mapped.items().size());
            ErrorFields error = errorFields(mapped.items().get(0));
            assertEquals("java.io.IOException", error.exceptionType());
            assertEquals("", error.requestUrl(), "an outgoing call's URL is not the request's");
        }
    }

    @Test
    void anExceptionOnAChildSpanIsCountedUnderTheRouteAndNameOfItsServerSpanInTheSameExport() {
        try (OtelSpans sdk = sdk()) {
            Tracer tracer = sdk.tracer();
            io.opentelemetry.api.trace.Span server = serverSpan(tracer, "POST", "/checkout");
            server.setAttribute("url.path", "/checkout");
            io.opentelemetry.api.trace.Span call = tracer.spanBuilder("charge").setSpanKind(SpanKind.CLIENT)
                    .setParent(Context.root().with(server)).startSpan();
            call.setAttribute("http.request.method", "GET");
            call.setAttribute("url.full", "https://payments.example/charge");
            call.recordException(new java.io.IOException("connection reset"));
            call.end();
            server.end(END, TimeUnit.NANOSECONDS); // exported after its child, as SDKs do

            List<MappedSpan> spans = mapped(sdk);

            OtlpItem error = spans.get(0).items().get(0);
            ErrorFields fields = errorFields(error);
            assertEquals("POST /checkout", fields.route());
            assertEquals("POST", fields.requestMethod());
            assertEquals("/checkout", fields.requestUrl());
            assertEquals("POST /checkout", tree(error).get("transaction").textValue());
            assertEquals("https://payments.example/charge", tree(error).at("/contexts/trace/data/url").textValue(),
                    "the call's own URL stays with its span");
        }
    }

    @Test
    void anExceptionDeeperDownFindsItsServerSpanThroughItsParents() {
        try (OtelSpans sdk = sdk()) {
            Tracer tracer = sdk.tracer();
            io.opentelemetry.api.trace.Span server = serverSpan(tracer, "GET", "/users/{id}");
            io.opentelemetry.api.trace.Span load = tracer.spanBuilder("load user").setParent(Context.root().with(server)).startSpan();
            io.opentelemetry.api.trace.Span query = tracer.spanBuilder("SELECT users").setSpanKind(SpanKind.CLIENT)
                    .setParent(Context.root().with(load)).startSpan();
            query.recordException(new IllegalStateException("timeout"));
            query.end();
            load.end();
            server.end();

            ErrorFields error = errorFields(mapped(sdk).get(0).items().get(0));

            assertEquals("GET /users/{id}", error.route());
        }
    }

    @Test
    void parentsThatLoopEndTheWalkWithoutARoute() {
        ByteString first = ByteString.fromHex("00000000000000a1");
        ByteString second = ByteString.fromHex("00000000000000a2");
        Span looping = TraceRequestDecoderTest.span("SELECT").toBuilder().setSpanId(first).setParentSpanId(second)
                .setKind(Span.SpanKind.SPAN_KIND_CLIENT).addEvents(Span.Event.newBuilder().setName("exception")).build();
        Span back = looping.toBuilder().setSpanId(second).setParentSpanId(first).clearEvents().build();
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(looping).addSpans(back))).build().toByteArray();

        OtlpItem error = READER.read(body, OtlpFormat.PROTOBUF).get(0).items().get(0);

        assertEquals("", errorFields(error).route());
    }

    @Test
    void aSpanOfAnotherTraceWithTheSameIdIsNotTheServerSpan() {
        Span server = TraceRequestDecoderTest.span("GET /a").toBuilder().addAttributes(string("http.route", "/a")).build();
        Span otherTrace = Span.newBuilder().setTraceId(ByteString.fromHex("0af7651916cd43dd8448eb211c80319c"))
                .setSpanId(ByteString.fromHex("b7ad6b7169203331")).setParentSpanId(server.getSpanId()).setName("SELECT")
                .setKind(Span.SpanKind.SPAN_KIND_CLIENT).addEvents(Span.Event.newBuilder().setName("exception")).build();
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(otherTrace).addSpans(server))).build().toByteArray();

        OtlpItem error = READER.read(body, OtlpFormat.PROTOBUF).get(0).items().get(0);

        assertNull(tree(error).get("transaction"));
        assertEquals("", errorFields(error).route());
    }

    @Test
    void theSameSpanSentAgainHasTheSameEventIdsAndOtherSpansOthers() {
        try (OtelSpans sdk = sdk()) {
            for (int i = 0; i < 2; i++) {
                io.opentelemetry.api.trace.Span span = serverSpan(sdk.tracer(), "GET /");
                span.recordException(new RuntimeException("first"));
                span.recordException(new RuntimeException("second"));
                span.end();
            }
            List<String> ids = mapped(sdk).stream().flatMap(span -> span.items().stream())
                    .map(item -> tree(item).get("event_id").textValue()).toList();
            List<String> again = mapped(sdk).stream().flatMap(span -> span.items().stream())
                    .map(item -> tree(item).get("event_id").textValue()).toList();

            assertEquals(6, ids.size());
            assertEquals(ids, again);
            assertEquals(6, ids.stream().distinct().count());
        }
    }

    @Test
    void aSpanWithoutValidIdsIsRejectedWithWhy() {
        Span noTrace = TraceRequestDecoderTest.span("GET /").toBuilder().setTraceId(ByteString.EMPTY).build();
        Span zeroSpan = TraceRequestDecoderTest.span("GET /").toBuilder().setSpanId(ByteString.copyFrom(new byte[8])).build();

        assertEquals(MappedSpan.rejected("a span's trace id must be 16 bytes, not all zero"), only(Resource.getDefaultInstance(), noTrace));
        assertEquals(MappedSpan.rejected("a span's span id must be 8 bytes, not all zero"), only(Resource.getDefaultInstance(), zeroSpan));
    }

    @Test
    void aSpanWithMoreExceptionEventsThanTheLimitIsRejected() {
        Span.Builder span = TraceRequestDecoderTest.span("GET /").toBuilder();
        for (int i = 0; i <= SpanMapper.MAX_EXCEPTIONS_PER_SPAN; i++) {
            span.addEvents(Span.Event.newBuilder().setName("exception").addAttributes(string("exception.type", "E" + i)));
        }

        MappedSpan mapped = only(Resource.getDefaultInstance(), span.build());

        assertEquals(MappedSpan.Kind.REJECTED, mapped.kind());
        assertEquals(List.of(), mapped.items());
    }

    @Test
    void aLargeResourceValueIsCutInEveryEventMadeOfItsSpans() {
        Resource resource = Resource.newBuilder().addAttributes(string("service.name", "s".repeat(100_000))).build();
        Span span = TraceRequestDecoderTest.span("GET /").toBuilder()
                .addEvents(Span.Event.newBuilder().setName("exception").addAttributes(string("exception.type", "E"))).build();

        MappedSpan mapped = only(resource, span);

        for (OtlpItem item : mapped.items()) {
            assertEquals(SpanMapper.MAX_COPIED_CHARS, tree(item).at("/tags/service.name").textValue().length());
        }
    }

    @Test
    void nestedAttributeValuesAreWrittenToALimitedDepth() {
        AnyValue value = AnyValue.newBuilder().setStringValue("bottom").build();
        for (int i = 0; i < 15; i++) {
            value = AnyValue.newBuilder().setArrayValue(io.opentelemetry.proto.common.v1.ArrayValue.newBuilder().addValues(value)).build();
        }
        Span span = TraceRequestDecoderTest.span("GET /").toBuilder()
                .addAttributes(KeyValue.newBuilder().setKey("deep").setValue(value)).build();

        JsonNode deep = tree(only(Resource.getDefaultInstance(), span).items().get(0)).at("/contexts/trace/data/deep");

        String path = "/0".repeat(io.sluice.gateway.otlp.Attributes.MAX_VALUE_DEPTH);
        assertEquals("(nested deeper than " + io.sluice.gateway.otlp.Attributes.MAX_VALUE_DEPTH + ")", deep.at(path).textValue());
        assertNull(deep.at(path + "/0").textValue());
    }

    @Test
    void aSpansIdsGoInTheTraceContext() {
        Span span = TraceRequestDecoderTest.span("GET /");

        JsonNode trace = tree(only(Resource.getDefaultInstance(), span).items().get(0)).at("/contexts/trace");

        assertEquals("5b8efff798038103d269b633813fc60c", trace.get("trace_id").textValue());
        assertEquals("eee19b7ec3c1b174", trace.get("span_id").textValue());
        assertNotEquals(null, trace.get("op"));
    }

    private static MappedSpan only(Resource resource, Span span) {
        return SpanMapper.map(new OtlpSpan(io.sluice.gateway.otlp.Attributes.of(resource.getAttributesList()), span));
    }

    private static KeyValue string(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static KeyValue integer(String key, long value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setIntValue(value)).build();
    }
}
