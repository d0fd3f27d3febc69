package io.sluice.gateway.otlp;

import io.opentelemetry.proto.trace.v1.Span;

/** A span of an export with its resource's attributes (read once per resource, shared by its spans). */
public final class OtlpSpan {
    final Attributes resource;
    final Span span;

    OtlpSpan(Attributes resource, Span span) {
        this.resource = resource;
        this.span = span;
    }
}
