package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.gateway.admit.Rejection;

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
}
