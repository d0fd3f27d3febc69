package io.sluice.gateway.otlp;

import java.util.ArrayList;
import java.util.List;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/** A span of an export with its resource's attributes (read once per resource, shared by its spans). */
public final class OtlpSpan {
    final Attributes resource;
    final Span span;

    private OtlpSpan(Attributes resource, Span span) {
        this.resource = resource;
        this.span = span;
    }

    /** The spans of an export, in order. */
    public static List<OtlpSpan> of(ExportTraceServiceRequest request) {
        List<OtlpSpan> spans = new ArrayList<>();
        for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
            Attributes resource = Attributes.of(resourceSpans.getResource().getAttributesList());
            for (ScopeSpans scope : resourceSpans.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) {
                    spans.add(new OtlpSpan(resource, span));
                }
            }
        }
        return spans;
    }

    /** Bytes of the span as sent: what reading it costs, roughly (for reading an export in slices). */
    public int size() {
        return span.getSerializedSize();
    }
}
