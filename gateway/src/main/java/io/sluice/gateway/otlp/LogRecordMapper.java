package io.sluice.gateway.otlp;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.EventWriter;
import io.sluice.gateway.validate.WrittenEvent;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * A log record as the event Sluice stores: one that carries an exception (OpenTelemetry's
 * {@code exception.type}, {@code exception.message} or {@code exception.stacktrace} attributes,
 * or the event name {@code exception}) is an error report, written as {@link SpanMapper} writes a
 * span's exception event (the same exception, client and runtime fields); its level from the
 * record's severity. Other log records are not stored ({@link #NOT_STORED}).
 *
 * <p>The error names no request: an export of log records holds no spans, so the server span of
 * its {@code span_id} is not there to tell its route; the trace and span ids are kept in
 * {@code contexts.trace}. Its event id is derived from the record ({@link SpanEventIds#logRecord}),
 * so a retried export is counted once.
 */
public final class LogRecordMapper {
    /** The outcome of a log record that is not stored (no exception). */
    public static final QualifiedOutcome NOT_STORED = QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, "otlp_log");

    private LogRecordMapper() {
    }

    /** An error (one event), or a record not stored. */
    static MappedSpan map(Attributes resource, LogRecord record) {
        Attributes attributes = Attributes.of(record.getAttributesList());
        if (!isException(record, attributes)) {
            return new MappedSpan(MappedSpan.Kind.NOT_STORED, List.of(), null);
        }
        try {
            return new MappedSpan(MappedSpan.Kind.ERROR, List.of(new OtlpItem(Endpoint.ERROR_REPORT, error(resource, record, attributes))),
                    null);
        } catch (IOException unwritable) {
            // Not expected: the decoder lets no text through that JSON cannot hold.
            return MappedSpan.rejected("a log record could not be written as an event: " + unwritable.getMessage());
        }
    }

    /** The semantic conventions' exception attributes (one of type and message is required), or the event's name. */
    private static boolean isException(LogRecord record, Attributes attributes) {
        return "exception".equals(record.getEventName())
                || attributes.has("exception.type") || attributes.has("exception.message") || attributes.has("exception.stacktrace");
    }

    private static WrittenEvent error(Attributes resource, LogRecord record, Attributes attributes) throws IOException {
        EventWriter json = SpanMapper.writer(256 + record.getSerializedSize());
        try (json) {
            json.writeStartObject();
            json.writeStringField("event_id", SpanEventIds.logRecord(record));
            json.writeStringField("level", level(record.getSeverityNumber()));
            SpanMapper.writeTime(json, "timestamp", record.getTimeUnixNano() != 0 ? record.getTimeUnixNano()
                    : record.getObservedTimeUnixNano());
            if (record.getBody().getValueCase() == AnyValue.ValueCase.STRING_VALUE && !record.getBody().getStringValue().isEmpty()) {
                json.writeStringField("message", record.getBody().getStringValue());
            }
            SpanMapper.writeClient(json, resource, attributes, null);
            SpanMapper.writeException(json, attributes);
            json.writeObjectFieldStart("contexts");
            json.writeObjectFieldStart("trace");
            writeId(json, "trace_id", record.getTraceId(), 16);
            writeId(json, "span_id", record.getSpanId(), 8);
            json.writeObjectFieldStart("data");
            attributes.writeFields(json, SpanMapper.EXCEPTION_FIELDS);
            json.writeEndObject();
            json.writeEndObject();
            SpanMapper.writeRuntimeAndOs(json, resource);
            json.writeEndObject();
            json.writeEndObject();
        }
        return json.written();
    }

    /** An id of its size, in hex; nothing for one unset or of another size. */
    private static void writeId(JsonGenerator json, String field, ByteString id, int size) throws IOException {
        if (id.size() == size) {
            json.writeStringField(field, HexFormat.of().formatHex(id.toByteArray()));
        }
    }

    /** Sentry's level for an OpenTelemetry severity; an error when the record names none. */
    static String level(SeverityNumber severity) {
        int number = severity.getNumber();
        if (number == 0 || (number >= SeverityNumber.SEVERITY_NUMBER_ERROR_VALUE && number < SeverityNumber.SEVERITY_NUMBER_FATAL_VALUE)) {
            return "error";
        }
        if (number >= SeverityNumber.SEVERITY_NUMBER_FATAL_VALUE) {
            return "fatal";
        }
        if (number >= SeverityNumber.SEVERITY_NUMBER_WARN_VALUE) {
            return "warning";
        }
        return number >= SeverityNumber.SEVERITY_NUMBER_INFO_VALUE ? "info" : "debug";
    }
}
