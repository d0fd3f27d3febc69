package io.sluice.gateway.otlp;

import java.util.function.Consumer;
import java.util.function.IntPredicate;

import io.opentelemetry.proto.trace.v1.Span;

/** The spans of an OTLP/HTTP trace export, one at a time, each with its resource ({@link ExportDecoder}'s bounds). */
final class TraceRequestDecoder {
    private final ExportDecoder<Span> spans;

    TraceRequestDecoder(int maxSpans) {
        this.spans = new ExportDecoder<>(ExportShape.TRACES, maxSpans);
    }

    /** Every span of the export; see {@link ExportDecoder#forEachItem}. */
    void forEachSpan(byte[] body, OtlpFormat format, HeldBytes held, Consumer<OtlpSpan> each) {
        forEachSpan(body, format, held, span -> true, each);
    }

    /** The spans {@code decode} accepts (asked with each span's number before it is decoded); see {@link ExportDecoder#forEachItem}. */
    void forEachSpan(byte[] body, OtlpFormat format, HeldBytes held, IntPredicate decode, Consumer<OtlpSpan> each) {
        spans.forEachItem(body, format, held, decode, (resource, span) -> each.accept(new OtlpSpan(resource, span)));
    }
}
