package io.sluice.gateway.otlp;

import java.util.ArrayList;
import java.util.List;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.sluice.gateway.admit.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * An OTLP/HTTP trace export, a body already decompressed, read into what its spans became, in
 * order ({@link TraceRequestDecoder}, then {@link SpanMapper}). At most {@code maxSpans} spans, and
 * as many events made of them (a span may make a transaction and errors): so the events an export
 * holds in memory at once are bounded by the limit, not by how many tiny exception events fit in
 * its body. Beyond either, a 413.
 */
public final class ExportReader {
    private final TraceRequestDecoder decoder;
    private final int maxEvents;

    public ExportReader(int maxSpans) {
        this.decoder = new TraceRequestDecoder(maxSpans);
        this.maxEvents = maxSpans;
    }

    /** @throws Rejection 400 when the body is not an export, 413 beyond the spans or events allowed */
    public List<MappedSpan> read(byte[] body, OtlpFormat format) {
        ExportTraceServiceRequest request = decoder.decode(body, format);
        List<MappedSpan> spans = new ArrayList<>();
        long events = 0;
        for (OtlpSpan span : OtlpSpan.of(request)) {
            MappedSpan mapped = SpanMapper.map(span);
            events += mapped.items().size();
            if (events > maxEvents) {
                throw new Rejection(Outcome.BODY_TOO_LARGE, "an export may make at most " + maxEvents
                        + " events (a transaction per server span, an error per exception event); send smaller batches");
            }
            spans.add(mapped);
        }
        return spans;
    }
}
