package io.sluice.gateway.otlp;

import java.util.function.Supplier;

import com.google.protobuf.DiscardUnknownFieldsParser;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * How one OTLP signal's export nests, the same for all three: the request's resource list
 * (field 1), each with its resource (1) and its scopes (2), each scope with its items (2): spans,
 * log records or metrics. {@link ExportDecoder} and {@link OtlpJsonReader} walk any of them by
 * these descriptors; {@code parser} decodes one item, discarding the fields this OTLP version
 * does not know, in the item and all it holds (kept, each takes about 144 bytes however small it
 * was sent, and nothing reads them).
 *
 * @param item   what an item is called, in answers ({@code span})
 * @param batchAdvice how an exporter sends fewer items at once, for a 413
 */
record ExportShape<T extends Message>(Descriptor request, Descriptor resourceItems, Descriptor scopeItems, Descriptor itemType,
                                      Parser<T> parser, Supplier<Message.Builder> builder, String item, String batchAdvice) {
    /** The field numbers that every signal's messages share: a request's resource list, its resource and scopes, a scope's items. */
    static final int RESOURCE_ITEMS = 1;
    static final int RESOURCE = 1;
    static final int SCOPE_ITEMS = 2;
    static final int ITEMS = 2;

    static final ExportShape<Span> TRACES = new ExportShape<>(ExportTraceServiceRequest.getDescriptor(),
            ResourceSpans.getDescriptor(), ScopeSpans.getDescriptor(), Span.getDescriptor(),
            DiscardUnknownFieldsParser.wrap(Span.parser()), Span::newBuilder, "span",
            "an SDK's batch span processor sends 512 at most by default, a Collector's batch processor 8,192 and a little more: "
                    + "set its send_batch_max_size");
    static final ExportShape<LogRecord> LOGS = new ExportShape<>(ExportLogsServiceRequest.getDescriptor(),
            ResourceLogs.getDescriptor(), ScopeLogs.getDescriptor(), LogRecord.getDescriptor(),
            DiscardUnknownFieldsParser.wrap(LogRecord.parser()), LogRecord::newBuilder, "log record",
            "an SDK's batch log record processor sends 512 at most by default (OTEL_BLRP_MAX_EXPORT_BATCH_SIZE), a Collector's "
                    + "batch processor 8,192 and a little more: set its send_batch_max_size");
    static final ExportShape<Metric> METRICS = new ExportShape<>(ExportMetricsServiceRequest.getDescriptor(),
            ResourceMetrics.getDescriptor(), ScopeMetrics.getDescriptor(), Metric.getDescriptor(),
            DiscardUnknownFieldsParser.wrap(Metric.parser()), Metric::newBuilder, "metric",
            "a Collector's batch processor counts data points: set its send_batch_max_size");

    /** The 413 of an export of more than {@code max} items. */
    Rejection tooMany(int max) {
        return new Rejection(Outcome.BODY_TOO_LARGE, "an export may hold at most " + max + " " + item + "s; send smaller batches ("
                + batchAdvice + ")");
    }
}
