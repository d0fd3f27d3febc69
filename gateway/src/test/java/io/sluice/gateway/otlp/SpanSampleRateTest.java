package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.events.SampleRate;
import io.sluice.events.TransactionFields;

/** A span's sampling probability, from OpenTelemetry's tracestate threshold ({@code ot=th:<hex>}), as the transaction's rate. */
class SpanSampleRateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode transaction(String traceState) throws Exception {
        Span span = TraceRequestDecoderTest.span("GET /a").toBuilder().setTraceState(traceState).build();
        MappedSpan mapped = SpanMapper.map(new OtlpSpan(Attributes.of(Resource.getDefaultInstance().getAttributesList()), span));
        return JSON.readTree(mapped.items().get(0).json());
    }

    private static SampleRate rate(String traceState) throws Exception {
        return TransactionFields.of(transaction(traceState)).sampleRate();
    }

    @Test
    void aThresholdOfCKeepsAQuarter() throws Exception {
        assertEquals(0.25, rate("ot=th:c").rate());
    }

    @Test
    void theThresholdIsReadAmongOtherMembersAndKeys() throws Exception {
        assertEquals(0.5, rate("vendor=x:1,ot=rv:01020304050607;th:8").rate());
    }

    @Test
    void aThresholdOfSevenHexDigitsIsPaddedWithZeros() throws Exception {
        // th:fd70a3d = 0xfd70a3d0000000 rejected of 2^56: about 0.01 kept.
        assertEquals(1 - 0xfd70a3d0000000L / 0x1p56, rate("ot=th:fd70a3d").rate());
    }

    @Test
    void aThresholdOfZeroKeepsEverySpanAndWritesNoRate() throws Exception {
        assertNull(transaction("ot=th:0").get("sample_rate"));
        assertEquals(SampleRate.NONE, rate("ot=th:0"));
    }

    @Test
    void aSpanWithoutTraceStateHasNoRate() throws Exception {
        assertNull(transaction("").get("sample_rate"));
    }

    @Test
    void anUnreadableThresholdCountsAsOneAndIsInvalid() throws Exception {
        SampleRate rate = rate("ot=th:zz");
        assertEquals(1.0, rate.rate());
        assertEquals("sample_rate", rate.invalidAt());
        assertEquals("sample_rate", rate("ot=th:123456789abcdef").invalidAt(), "15 hex digits: more than 56 bits");
    }
}
