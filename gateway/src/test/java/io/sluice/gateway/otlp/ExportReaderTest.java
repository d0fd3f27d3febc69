package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
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
}
