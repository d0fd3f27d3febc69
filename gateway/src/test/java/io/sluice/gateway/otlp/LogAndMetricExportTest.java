package io.sluice.gateway.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/** OTLP log and metric exports, read as the traces door reads its own: what is stored, what is counted, and the same bounds. */
class LogAndMetricExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ExportReader READER = new ExportReader(10_000);
    private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
    private static final String SPAN_ID = "eee19b7ec3c1b174";
    private static final String STACK = """
            java.lang.IllegalStateException: no stock
            \tat shop.Checkout.reserve(Checkout.java:42)
            \tat shop.Checkout.handle(Checkout.java:17)""";

    private static KeyValue string(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    /** A record as the Java agent's log appender exports a {@code log.error("…", exception)}. */
    private static LogRecord exceptionLog() {
        return LogRecord.newBuilder().setTimeUnixNano(1_764_000_000_123_456_789L).setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_ERROR)
                .setSeverityText("ERROR").setBody(AnyValue.newBuilder().setStringValue("checkout failed"))
                .setTraceId(ByteString.fromHex(TRACE_ID)).setSpanId(ByteString.fromHex(SPAN_ID))
                .addAttributes(string("exception.type", "java.lang.IllegalStateException"))
                .addAttributes(string("exception.message", "no stock"))
                .addAttributes(string("exception.stacktrace", STACK))
                .addAttributes(string("order.id", "o-17"))
                .build();
    }

    private static LogRecord plainLog(String body) {
        return LogRecord.newBuilder().setTimeUnixNano(1_764_000_000_123_456_789L).setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_INFO)
                .setBody(AnyValue.newBuilder().setStringValue(body)).build();
    }

    private static byte[] logs(LogRecord... records) {
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(string("service.name", "shop"))
                        .addAttributes(string("deployment.environment.name", "production")))
                .addScopeLogs(ScopeLogs.newBuilder().addAllLogRecords(List.of(records)))).build().toByteArray();
    }

    private static List<MappedSpan> readLogs(byte[] body, OtlpFormat format) {
        return READER.readLogs(body, format, null, ExportReader.SpanQuota.NONE);
    }

    private static JsonNode onlyEvent(MappedSpan mapped) throws Exception {
        assertEquals(1, mapped.items().size());
        return JSON.readTree(mapped.items().get(0).json());
    }

    @Test
    void aLogRecordWithAnExceptionIsOneErrorWithItsTypeMessageAndFrames() throws Exception {
        List<MappedSpan> mapped = readLogs(logs(exceptionLog()), OtlpFormat.PROTOBUF);

        assertEquals(1, mapped.size());
        assertEquals(MappedSpan.Kind.ERROR, mapped.get(0).kind());
        assertEquals(Endpoint.ERROR_REPORT, mapped.get(0).items().get(0).endpoint());
        JsonNode error = onlyEvent(mapped.get(0));
        JsonNode exception = error.at("/exception/values/0");
        assertEquals("java.lang.IllegalStateException", exception.at("/type").asText());
        assertEquals("no stock", exception.at("/value").asText());
        assertEquals(2, exception.at("/stacktrace/frames").size());
        assertEquals("reserve", exception.at("/stacktrace/frames/1/function").asText(), "the frame that raised last");
        assertEquals(42, exception.at("/stacktrace/frames/1/lineno").asInt());
        assertEquals("error", error.at("/level").asText());
        assertEquals("checkout failed", error.at("/message").asText());
        assertTrue(new String(mapped.get(0).items().get(0).json(), StandardCharsets.UTF_8).contains("\"timestamp\":1764000000.123456789,"),
                "the record's time, to the nanosecond");
        assertEquals("production", error.at("/environment").asText());
        assertEquals("shop", error.at("/tags/service.name").asText());
        assertEquals("o-17", error.at("/contexts/trace/data/order.id").asText());
        assertTrue(error.at("/contexts/trace/data/exception.type").isMissingNode(), "written once, as the exception");
    }

    @Test
    void anExceptionLogNamesItsTraceAndSpanButNoRequestSinceALogExportHoldsNoSpans() throws Exception {
        JsonNode error = onlyEvent(readLogs(logs(exceptionLog()), OtlpFormat.PROTOBUF).get(0));

        assertEquals(TRACE_ID, error.at("/contexts/trace/trace_id").asText());
        assertEquals(SPAN_ID, error.at("/contexts/trace/span_id").asText());
        assertTrue(error.at("/transaction").isMissingNode());
        assertTrue(error.at("/contexts/trace/data/http.route").isMissingNode());
    }

    @Test
    void aLogRecordNamedExceptionIsAnErrorWithoutExceptionAttributes() {
        LogRecord event = plainLog("boom").toBuilder().setEventName("exception").build();

        assertEquals(MappedSpan.Kind.ERROR, readLogs(logs(event), OtlpFormat.PROTOBUF).get(0).kind());
    }

    @Test
    void aLogRecordWithoutAnExceptionIsNotStored() {
        List<MappedSpan> mapped = readLogs(logs(plainLog("order placed"), exceptionLog(), plainLog("order paid")), OtlpFormat.PROTOBUF);

        assertEquals(List.of(MappedSpan.Kind.NOT_STORED, MappedSpan.Kind.ERROR, MappedSpan.Kind.NOT_STORED),
                mapped.stream().map(MappedSpan::kind).toList());
        assertEquals(0, mapped.get(0).items().size());
    }

    @Test
    void theSameLogRecordSentAgainIsTheSameEventInProtobufAndJson() throws Exception {
        String json = """
                {"resourceLogs": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "shop"}},
                   {"key": "deployment.environment.name", "value": {"stringValue": "production"}}]},
                 "scopeLogs": [{"logRecords": [{"timeUnixNano": "1764000000123456789", "severityNumber": 17, "severityText": "ERROR",
                   "body": {"stringValue": "checkout failed"}, "traceId": "%s", "spanId": "%s",
                   "attributes": [{"key": "exception.type", "value": {"stringValue": "java.lang.IllegalStateException"}},
                                  {"key": "exception.message", "value": {"stringValue": "no stock"}},
                                  {"key": "exception.stacktrace", "value": {"stringValue": %s}},
                                  {"key": "order.id", "value": {"stringValue": "o-17"}}]}]}]}]}"""
                .formatted(TRACE_ID, SPAN_ID, JSON.writeValueAsString(STACK));

        String first = onlyEvent(readLogs(logs(exceptionLog()), OtlpFormat.PROTOBUF).get(0)).at("/event_id").asText();
        String again = onlyEvent(readLogs(logs(exceptionLog()), OtlpFormat.PROTOBUF).get(0)).at("/event_id").asText();
        String asJson = onlyEvent(readLogs(json.getBytes(StandardCharsets.UTF_8), OtlpFormat.JSON).get(0)).at("/event_id").asText();

        assertEquals(32, first.length());
        assertEquals(first, again);
        assertEquals(first, asJson);
    }

    @Test
    void twoExceptionLogsOfOneSpanAreTwoErrors() throws Exception {
        LogRecord later = exceptionLog().toBuilder().setTimeUnixNano(1_764_000_000_223_456_789L).build();
        List<MappedSpan> mapped = readLogs(logs(exceptionLog(), later), OtlpFormat.PROTOBUF);

        assertFalse(onlyEvent(mapped.get(0)).at("/event_id").asText().equals(onlyEvent(mapped.get(1)).at("/event_id").asText()));
    }

    @Test
    void anExceptionLogsLevelIsItsSeverity() throws Exception {
        LogRecord warning = exceptionLog().toBuilder().setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_WARN).build();
        LogRecord fatal = exceptionLog().toBuilder().setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_FATAL2).build();
        LogRecord unset = exceptionLog().toBuilder().setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_UNSPECIFIED).build();

        List<MappedSpan> mapped = readLogs(logs(warning, fatal, unset), OtlpFormat.PROTOBUF);

        assertEquals("warning", onlyEvent(mapped.get(0)).at("/level").asText());
        assertEquals("fatal", onlyEvent(mapped.get(1)).at("/level").asText());
        assertEquals("error", onlyEvent(mapped.get(2)).at("/level").asText());
    }

    @Test
    void logRecordsBeyondTheProjectsQuotaAreOverQuotaWithoutBeingDecoded() throws Exception {
        // The second record's body is not valid UTF-8: decoded, it would refuse the whole export.
        byte[] unreadable = TraceRequestDecoderTest.concat(plainLog("x").toByteArray(),
                new byte[] {(byte) (LogRecord.SEVERITY_TEXT_FIELD_NUMBER << 3 | 2), 1, (byte) 0xff});
        byte[] body = TraceRequestDecoderTest.concat(logs(exceptionLog()),
                lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, unreadable))));
        Rejection limit = new Rejection(Outcome.QUOTA_EXCEEDED, "used up");
        List<Integer> asked = new ArrayList<>();

        List<MappedSpan> mapped = READER.readLogs(body, OtlpFormat.PROTOBUF, null, record -> {
            asked.add(record);
            return record == 1 ? limit : null;
        });

        assertEquals(List.of(0, 1), asked);
        assertEquals(List.of(MappedSpan.Kind.ERROR, MappedSpan.Kind.OVER_QUOTA), mapped.stream().map(MappedSpan::kind).toList());
        assertEquals(limit, mapped.get(1).limit());
    }

    @Test
    void aLogRecordsUnknownFieldsAreDiscardedAndItsEventIdIsTheSame() throws Exception {
        byte[] withUnknown = TraceRequestDecoderTest.concat(exceptionLog().toByteArray(), new byte[] {(byte) 0xc0, (byte) 0x3e, 1});
        byte[] body = lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, withUnknown)));

        String fromUnknown = onlyEvent(readLogs(body, OtlpFormat.PROTOBUF).get(0)).at("/event_id").asText();
        String plain = onlyEvent(readLogs(logs(exceptionLog()), OtlpFormat.PROTOBUF).get(0)).at("/event_id").asText();

        assertEquals(plain, fromUnknown);
    }

    @Test
    void aLogRecordOfEmptyAttributesThatWouldNotFitItsReservationDecodedIsRefusedWith413BeforeItIsDecoded() {
        LogRecord.Builder record = exceptionLog().toBuilder();
        for (int i = 0; i < 100_000; i++) {
            record.addAttributes(KeyValue.getDefaultInstance()); // 2 bytes sent, about 100 decoded
        }
        byte[] body = logs(record.build());

        Rejection refused = assertThrows(Rejection.class,
                () -> READER.readLogs(body, OtlpFormat.PROTOBUF, reservation(4 << 20), ExportReader.SpanQuota.NONE));

        assertEquals(413, refused.status(), body.length + " bytes sent");
    }

    @Test
    void aLogExportOfMoreRecordsThanAllowedIsRefusedWith413NamingLogRecords() {
        byte[] body = logs(plainLog("a"), plainLog("b"), plainLog("c"));

        Rejection refused = assertThrows(Rejection.class,
                () -> new ExportReader(2).readLogs(body, OtlpFormat.PROTOBUF, null, ExportReader.SpanQuota.NONE));

        assertEquals(413, refused.status());
        assertTrue(refused.getMessage().startsWith("an export may hold at most 2 log records; send smaller batches"), refused.getMessage());
    }

    @Test
    void aLogExportThatIsNotJsonIsRefusedWith400NamingTheLogsRequest() {
        Rejection refused = assertThrows(Rejection.class, () -> readLogs("{\"resourceLogs\": 3}".getBytes(StandardCharsets.UTF_8),
                OtlpFormat.JSON));

        assertEquals(400, refused.status());
        assertEquals("the body is not an OTLP/JSON ExportLogsServiceRequest: 'resourceLogs' must be an array", refused.getMessage());
    }

    @Test
    void aMetricExportIsCountedAsItsDataPointsOfEveryType() {
        Metric gauge = Metric.newBuilder().setName("queue.depth").setGauge(Gauge.newBuilder()
                .addDataPoints(NumberDataPoint.newBuilder().setAsInt(3)).addDataPoints(NumberDataPoint.newBuilder().setAsInt(4))).build();
        Metric histogram = Metric.newBuilder().setName("http.server.request.duration").setHistogram(Histogram.newBuilder()
                .addDataPoints(HistogramDataPoint.getDefaultInstance()).addDataPoints(HistogramDataPoint.getDefaultInstance())
                .addDataPoints(HistogramDataPoint.getDefaultInstance())).build();
        byte[] body = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(gauge).addMetrics(histogram))
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("no data")))).build().toByteArray();

        assertEquals(5, READER.metricPoints(body, OtlpFormat.PROTOBUF, null));
    }

    @Test
    void aMetricExportInJsonIsCountedTheSame() {
        String body = """
                {"resourceMetrics": [{"scopeMetrics": [{"metrics": [
                  {"name": "queue.depth", "gauge": {"dataPoints": [{"asInt": "3"}, {"asInt": "4"}]}},
                  {"name": "requests", "sum": {"dataPoints": [{"asDouble": 1.5, "unknown": 1}], "isMonotonic": true}}
                ]}]}]}""";

        assertEquals(3, READER.metricPoints(body.getBytes(StandardCharsets.UTF_8), OtlpFormat.JSON, null));
    }

    @Test
    void aMetricOfEmptyAttributesThatWouldNotFitItsReservationDecodedIsRefusedWith413() {
        NumberDataPoint.Builder point = NumberDataPoint.newBuilder();
        for (int i = 0; i < 100_000; i++) {
            point.addAttributes(KeyValue.getDefaultInstance());
        }
        byte[] body = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("m")
                        .setGauge(Gauge.newBuilder().addDataPoints(point))))).build().toByteArray();

        Rejection refused = assertThrows(Rejection.class, () -> READER.metricPoints(body, OtlpFormat.PROTOBUF, reservation(4 << 20)));

        assertEquals(413, refused.status(), body.length + " bytes sent");
    }

    private static byte[] lengthDelimited(int field, byte[] message) throws java.io.IOException {
        return TraceRequestDecoderTest.lengthDelimited(field, message);
    }

    private static InFlightBudget.Reservation reservation(long maxBytes) {
        return new InFlightBudget(maxBytes, maxBytes, new AtomicLong()).expect(null, null, 0);
    }
}
