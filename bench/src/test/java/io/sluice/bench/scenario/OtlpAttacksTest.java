package io.sluice.bench.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;

class OtlpAttacksTest {
    @Test
    void theNegativeExponentBodyIs164BytesWithItsExponentInTheStartTime() {
        byte[] body = OtlpAttacks.negativeExponent();

        assertEquals(164, body.length);
        assertEquals(true, new String(body, StandardCharsets.US_ASCII).contains("\"startTimeUnixNano\":1e-60000000"));
    }

    @Test
    void theUnknownFieldsExportIsValidProtobufWhoseSpansCarryEveryField() throws Exception {
        ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(OtlpAttacks.unknownFields(2, 1_000));

        var spans = export.getResourceSpans(0).getScopeSpans(0).getSpansList();
        assertEquals(2, spans.size());
        for (Span span : spans) {
            assertEquals(Span.SpanKind.SPAN_KIND_SERVER, span.getKind());
            assertEquals(1_000, span.getUnknownFields().asMap().size());
        }
    }

    @Test
    void theLargeJsonExportHoldsAsManyDistinctServerSpansAsAsked() throws Exception {
        JsonNode spans = new ObjectMapper().readTree(OtlpAttacks.largeJsonExport(100))
                .path("resourceSpans").path(0).path("scopeSpans").path(0).path("spans");

        assertEquals(100, spans.size());
        java.util.Set<String> ids = new java.util.HashSet<>();
        spans.forEach(span -> ids.add(span.path("spanId").asText()));
        assertEquals(100, ids.size());
        assertEquals(2, spans.path(0).path("kind").asInt());
    }
}
