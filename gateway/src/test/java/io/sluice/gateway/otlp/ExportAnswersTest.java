package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.google.protobuf.CodedInputStream;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.sluice.gateway.ingest.OtlpSignal;

class ExportAnswersTest {
    @Test
    void aFullSuccessIsAnEmptyResponse() throws Exception {
        assertEquals(0, ExportAnswers.success(OtlpFormat.PROTOBUF, OtlpSignal.TRACES, 0, "").length);
        assertEquals("{}", new String(ExportAnswers.success(OtlpFormat.JSON, OtlpSignal.TRACES, 0, ""), StandardCharsets.UTF_8));
    }

    @Test
    void aPartialSuccessNamesTheRejectedSpansAndWhyInProtobuf() throws Exception {
        ExportTraceServiceResponse response = ExportTraceServiceResponse.parseFrom(
                ExportAnswers.success(OtlpFormat.PROTOBUF, OtlpSignal.TRACES, 3, "over quota"));

        assertEquals(3, response.getPartialSuccess().getRejectedSpans());
        assertEquals("over quota", response.getPartialSuccess().getErrorMessage());
    }

    @Test
    void aPartialSuccessNamesTheRejectedSpansAndWhyInJson() {
        assertEquals("{\"partialSuccess\":{\"rejectedSpans\":\"3\",\"errorMessage\":\"over quota\"}}",
                new String(ExportAnswers.success(OtlpFormat.JSON, OtlpSignal.TRACES, 3, "over quota"), StandardCharsets.UTF_8));
    }

    @Test
    void anErrorIsAStatusWithTheGrpcCodeAndTheMessage() throws Exception {
        CodedInputStream status = CodedInputStream.newInstance(ExportAnswers.status(OtlpFormat.PROTOBUF, 429, "slow down"));
        assertEquals((1 << 3), status.readTag());
        assertEquals(8, status.readInt32());
        assertEquals((2 << 3) | 2, status.readTag());
        assertEquals("slow down", status.readString());

        assertEquals("{\"code\":3,\"message\":\"bad\"}", new String(ExportAnswers.status(OtlpFormat.JSON, 400, "bad"),
                StandardCharsets.UTF_8));
    }
}
