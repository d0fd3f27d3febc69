package io.sluice.gateway.otlp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.CodedOutputStream;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.sluice.gateway.ingest.OtlpSignal;

/**
 * The bodies of OTLP/HTTP answers, in the request's encoding as the specification asks: an
 * {@code ExportTraceServiceResponse} (with {@code partial_success} when spans were rejected), or
 * the logs' or metrics' response, for a 200, a {@code google.rpc.Status} for an error. Status is two fields, written by hand: its
 * class is in Google's common-protos, a jar for one message.
 */
public final class ExportAnswers {
    private static final JsonFactory JSON = new JsonFactory();

    private ExportAnswers() {
    }

    /**
     * A 200's body: {@code partial_success} naming the rejected items (spans, log records, data
     * points: the signal's) and why, when there are any.
     */
    public static byte[] success(OtlpFormat format, OtlpSignal signal, long rejected, String why) {
        if (format == OtlpFormat.PROTOBUF) {
            if (rejected == 0) {
                return new byte[0]; // every signal's response, with no partial_success
            }
            return switch (signal) {
                case TRACES -> ExportTraceServiceResponse.newBuilder().setPartialSuccess(
                        ExportTracePartialSuccess.newBuilder().setRejectedSpans(rejected).setErrorMessage(why)).build().toByteArray();
                case LOGS -> ExportLogsServiceResponse.newBuilder().setPartialSuccess(
                        ExportLogsPartialSuccess.newBuilder().setRejectedLogRecords(rejected).setErrorMessage(why)).build().toByteArray();
                case METRICS -> ExportMetricsServiceResponse.newBuilder().setPartialSuccess(
                        ExportMetricsPartialSuccess.newBuilder().setRejectedDataPoints(rejected).setErrorMessage(why)).build()
                        .toByteArray();
            };
        }
        String rejectedField = switch (signal) {
            case TRACES -> "rejectedSpans";
            case LOGS -> "rejectedLogRecords";
            case METRICS -> "rejectedDataPoints";
        };
        return json(json -> {
            json.writeStartObject();
            if (rejected > 0) {
                json.writeObjectFieldStart("partialSuccess");
                json.writeStringField(rejectedField, Long.toString(rejected)); // an int64, as OTLP/JSON writes them
                json.writeStringField("errorMessage", why);
                json.writeEndObject();
            }
            json.writeEndObject();
        });
    }

    /** An error's body: a {@code google.rpc.Status} with the gRPC code for the HTTP status, and the message. */
    public static byte[] status(OtlpFormat format, int httpStatus, String message) {
        int code = grpcCode(httpStatus);
        if (format == OtlpFormat.PROTOBUF) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            try {
                out.writeInt32(1, code);
                out.writeString(2, message);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }
        return json(json -> {
            json.writeStartObject();
            json.writeNumberField("code", code);
            json.writeStringField("message", message);
            json.writeEndObject();
        });
    }

    /** The gRPC status code that an OTLP/gRPC server would answer with for this HTTP status. */
    static int grpcCode(int httpStatus) {
        return switch (httpStatus) {
            case 400, 415 -> 3; // INVALID_ARGUMENT
            case 401 -> 16; // UNAUTHENTICATED
            case 403 -> 7; // PERMISSION_DENIED
            case 404 -> 5; // NOT_FOUND
            case 405 -> 12; // UNIMPLEMENTED
            case 408 -> 4; // DEADLINE_EXCEEDED
            case 413, 429 -> 8; // RESOURCE_EXHAUSTED
            case 503 -> 14; // UNAVAILABLE
            default -> 2; // UNKNOWN
        };
    }

    private interface Writer {
        void write(JsonGenerator json) throws IOException;
    }

    private static byte[] json(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            writer.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
