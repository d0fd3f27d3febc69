package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

class ExportReaderTest {
    private static Span withExceptions(int exceptions) {
        Span.Builder span = TraceRequestDecoderTest.span("GET /").toBuilder();
        for (int i = 0; i < exceptions; i++) {
            span.addEvents(Span.Event.newBuilder().setName("exception"));
        }
        return span.build();
    }

    @Test
    void theSpansOfAnExportAreMappedInOrder() {
        List<MappedSpan> spans = new ExportReader(10).read(TraceRequestDecoderTest.request(withExceptions(2)).toByteArray(),
                OtlpFormat.PROTOBUF);

        assertEquals(1, spans.size());
        assertEquals(3, spans.get(0).items().size());
    }

    @Test
    void anExportThatWouldMakeMoreEventsThanItMayHaveSpansIsRefusedWith413() {
        byte[] body = TraceRequestDecoderTest.request(withExceptions(10)).toByteArray(); // one span, 11 events

        Rejection refused = assertThrows(Rejection.class, () -> new ExportReader(10).read(body, OtlpFormat.PROTOBUF));

        assertEquals(413, refused.status());
        assertTrue(refused.getMessage().contains("at most 10 events"), refused.getMessage());
    }

    @Test
    void theSpansAfterTheEventsRefuseAnExportTakeNoQuota() {
        // The first span makes 5 events of the 4 an export may make: the export is refused there, whatever follows.
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(
                ScopeSpans.newBuilder().addSpans(withExceptions(4)).addSpans(TraceRequestDecoderTest.span("GET /b"))
                        .addSpans(TraceRequestDecoderTest.span("GET /c")))).build().toByteArray();
        List<Integer> asked = new ArrayList<>();

        Rejection refused = assertThrows(Rejection.class, () -> new ExportReader(4).read(body, OtlpFormat.PROTOBUF, null, span -> {
            asked.add(span);
            return null;
        }));

        assertEquals(413, refused.status(), refused.getMessage());
        assertEquals(List.of(0), asked, "only the span before the refusal took its share");
    }

    @Test
    void aSpanTheQuotaRefusesIsPassedOverUndecoded() throws Exception {
        // Decoded, the second span would refuse the whole export: its name is not UTF-8.
        byte[] unreadable = TraceRequestDecoderTest.concat(TraceRequestDecoderTest.span("GET /b").toByteArray(),
                TraceRequestDecoderTest.lengthDelimited(Span.NAME_FIELD_NUMBER, new byte[] {(byte) 0xff}));
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(
                ScopeSpans.newBuilder().addSpans(TraceRequestDecoderTest.span("GET /a")))).build().toByteArray();
        body = TraceRequestDecoderTest.concat(body, TraceRequestDecoderTest.lengthDelimited(1, TraceRequestDecoderTest.lengthDelimited(2,
                TraceRequestDecoderTest.lengthDelimited(2, unreadable))));
        Rejection limit = new Rejection(Outcome.QUOTA_EXCEEDED, "used up");
        List<Integer> asked = new ArrayList<>();

        List<MappedSpan> spans = new ExportReader(10).read(body, OtlpFormat.PROTOBUF, null, span -> {
            asked.add(span);
            return span == 0 ? null : limit;
        });

        assertEquals(List.of(0, 1), asked, "each span asked once");
        assertEquals(List.of(MappedSpan.Kind.REQUEST, MappedSpan.Kind.OVER_QUOTA), spans.stream().map(MappedSpan::kind).toList());
        assertEquals(limit, spans.get(1).limit());
    }

    @Test
    void eachSpanIsDecodedOnceWhenNoExceptionNeedsAServerSpanFromFurtherOn() {
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(
                ScopeSpans.newBuilder().addSpans(TraceRequestDecoderTest.span("GET /a")).addSpans(TraceRequestDecoderTest.span("GET /b"))))
                .build().toByteArray();
        int name = indexOf(body, "GET /a");

        // Once the first span is read, the body changes under it: a second reading of it would make "GET /z".
        List<MappedSpan> spans = new ExportReader(10).read(body, OtlpFormat.PROTOBUF, null, span -> {
            if (span == 1) {
                body[name + 5] = 'z';
            }
            return null;
        });

        assertEquals(2, spans.size());
        assertTrue(json(spans.get(0)).contains("\"transaction\":\"GET /a\""), json(spans.get(0)));
    }

    @Test
    void anExceptionOnAChildSpanBeforeItsServerSpanIsToldItsRequestAndKeepsItsPlace() {
        ByteString trace = ByteString.fromHex("5b8efff798038103d269b633813fc60c");
        ByteString server = ByteString.fromHex("eee19b7ec3c1b174");
        Span child = Span.newBuilder().setTraceId(trace).setSpanId(ByteString.fromHex("aaa19b7ec3c1b175")).setParentSpanId(server)
                .setKind(Span.SpanKind.SPAN_KIND_CLIENT).setName("SELECT orders")
                .addEvents(Span.Event.newBuilder().setName("exception").addAttributes(KeyValue.newBuilder().setKey("exception.type")
                        .setValue(AnyValue.newBuilder().setStringValue("SQLException"))))
                .build();
        Span request = Span.newBuilder().setTraceId(trace).setSpanId(server).setKind(Span.SpanKind.SPAN_KIND_SERVER)
                .setName("GET /orders/{id}").build();
        Span another = Span.newBuilder().setTraceId(trace).setSpanId(ByteString.fromHex("ccc19b7ec3c1b176"))
                .setKind(Span.SpanKind.SPAN_KIND_SERVER).setName("GET /c").build();
        byte[] body = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(
                ScopeSpans.newBuilder().addSpans(child).addSpans(request).addSpans(another)))
                .build().toByteArray();

        List<MappedSpan> spans = new ExportReader(10).read(body, OtlpFormat.PROTOBUF);

        assertEquals(List.of(MappedSpan.Kind.NOT_STORED, MappedSpan.Kind.REQUEST, MappedSpan.Kind.REQUEST),
                spans.stream().map(MappedSpan::kind).toList());
        assertTrue(json(spans.get(0)).contains("\"transaction\":\"GET /orders/{id}\""), json(spans.get(0)));
        assertTrue(json(spans.get(2)).contains("\"transaction\":\"GET /c\""), json(spans.get(2)));
    }

    @Test
    void anExportThatIsNotOtlpFurtherOnIsRefusedWith400ThoughItsSpansMakeTooManyEvents() throws Exception {
        // One span of 11 events, then a field whose length runs past the end of the body.
        byte[] body = TraceRequestDecoderTest.concat(TraceRequestDecoderTest.request(withExceptions(10)).toByteArray(),
                new byte[] {0x0a, 0x05});

        Rejection refused = assertThrows(Rejection.class, () -> new ExportReader(10).read(body, OtlpFormat.PROTOBUF));

        assertEquals(400, refused.status(), refused.getMessage());
    }

    private static String json(MappedSpan span) {
        return new String(span.items().get(0).json(), StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] body, String text) {
        byte[] wanted = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + wanted.length <= body.length; i++) {
            if (java.util.Arrays.equals(body, i, i + wanted.length, wanted, 0, wanted.length)) {
                return i;
            }
        }
        throw new AssertionError(text + " is not in the body");
    }
}
