package io.sluice.gateway.otlp;

import java.util.ArrayList;
import java.util.List;

import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.admit.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * An OTLP/HTTP trace export, a body already decompressed, read into what its spans became, in
 * order: its spans decoded one at a time ({@link TraceRequestDecoder}) twice: first
 * into the index of its server spans ({@link ServerSpans}), then each into its events
 * ({@link SpanMapper}). At most {@code maxSpans} spans, and as many events made of them (a span
 * may make a transaction and errors): so the events an export holds in memory at once are
 * bounded by the limit, not by how many tiny exception events fit in its body. Beyond either, a 413.
 *
 * <p>What reading holds beyond the body is taken from the request's in-flight reservation: the
 * span being decoded and its resource, the index, and the events (until the request is
 * answered). Decoding the export whole would hold about 8 times its protobuf size.
 */
public final class ExportReader {
    private final TraceRequestDecoder spans;
    private final int maxEvents;

    public ExportReader(int maxSpans) {
        this.spans = new TraceRequestDecoder(maxSpans);
        this.maxEvents = maxSpans;
    }

    /**
     * @param reservation the request's share of the in-flight budget, where what reading holds is taken
     * @throws Rejection 400 when the body is not an export, 413 beyond the bytes, spans or events
     *                   allowed, 503 when what reading holds does not fit the budget now
     */
    public List<MappedSpan> read(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation) {
        return read(body, format, new HeldBytes(reservation));
    }

    /** Holding nothing in any budget. */
    public List<MappedSpan> read(byte[] body, OtlpFormat format) {
        return read(body, format, HeldBytes.NONE);
    }

    private List<MappedSpan> read(byte[] body, OtlpFormat format, HeldBytes held) {
        ServerSpans servers = new ServerSpans();
        long[] indexed = {0};
        try {
            spans.forEachSpan(body, format, held, span -> {
                long bytes = servers.add(span);
                held.take(bytes);
                indexed[0] += bytes;
            });
            Mapping mapping = new Mapping(servers, held);
            spans.forEachSpan(body, format, held, mapping::add);
            return mapping.spans;
        } finally {
            held.giveBack(indexed[0]); // garbage once the spans are mapped
        }
    }

    /** The spans mapped so far, and their events, held until the request is answered. */
    private final class Mapping {
        final ServerSpans servers;
        final HeldBytes held;
        final List<MappedSpan> spans = new ArrayList<>();
        long events;

        Mapping(ServerSpans servers, HeldBytes held) {
            this.servers = servers;
            this.held = held;
        }

        void add(OtlpSpan span) {
            MappedSpan mapped = SpanMapper.map(span, servers);
            events += mapped.items().size();
            if (events > maxEvents) {
                throw new Rejection(Outcome.BODY_TOO_LARGE, "an export may make at most " + maxEvents
                        + " events (a transaction per server span, an error per exception event); send smaller batches");
            }
            long bytes = 0;
            for (OtlpItem item : mapped.items()) {
                bytes += item.json().length;
            }
            held.take(bytes);
            spans.add(mapped);
        }
    }
}
