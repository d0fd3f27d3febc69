package io.sluice.gateway.otlp;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;

import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * OTLP/HTTP exports, a body already decompressed, read with the limits: a trace export into what
 * its spans became, a log export into what its log records became ({@link LogRecordMapper}), a
 * metric export into the number of its data points (none stored, {@link MetricPoints}). Each
 * holds at most {@code maxSpans} items (spans, log records, metrics). A trace export, in order:
 * its spans decoded one at a time ({@link TraceRequestDecoder}), each into the index of its server
 * spans ({@link ServerSpans}) and into its events ({@link SpanMapper}); a span whose exceptions
 * need the index whole (a child span, whose server span may come later) is decoded again once
 * every span is indexed, in a second reading that only an export holding one makes. At most {@code maxSpans} spans, and as many events made of them (a span
 * may make a transaction and errors): so the events an export holds in memory at once are
 * bounded by the limit, not by how many tiny exception events fit in its body. Beyond either, a 413.
 *
 * <p>Each span takes its share of its project's quota ({@link SpanQuota}) before it is decoded:
 * a span over the quota is passed over, costing no decode, and is {@link MappedSpan.Kind#OVER_QUOTA}
 * (a 10,000-span export of a project out of quota is otherwise decoded, to be refused). Such a span is not in the index either: an exception of a span within the quota whose
 * server span is beyond it is not told that request. Taken as each span is reached: an export
 * refused further on (400, 413) keeps what the spans before took, as a request refused keeps its head's.
 *
 * <p>What reading holds beyond the body is taken from the request's in-flight reservation: the
 * span being decoded and its resource, the index, and the events (until the request is
 * answered). Decoding the export whole would hold about 8 times its protobuf size.
 */
public final class ExportReader {
    /** Takes a span's (or a log record's) share of its project's quota, before it is decoded. */
    @FunctionalInterface
    public interface SpanQuota {
        /** Takes none: every span is decoded (tests, tools). */
        SpanQuota NONE = span -> null;

        /** @param span the span's number in its export, from 0; returns null once taken, or the 429 refusing it */
        Rejection take(int span);
    }

    private final TraceRequestDecoder spans;
    private final ExportDecoder<LogRecord> logs;
    private final ExportDecoder<Metric> metrics;
    private final int maxEvents;

    public ExportReader(int maxSpans) {
        this.spans = new TraceRequestDecoder(maxSpans);
        this.logs = new ExportDecoder<>(ExportShape.LOGS, maxSpans);
        this.metrics = new ExportDecoder<>(ExportShape.METRICS, maxSpans);
        this.maxEvents = maxSpans;
    }

    /**
     * @param reservation the request's share of the in-flight budget, where what reading holds is taken
     * @param quota       asked for each span before it is decoded
     * @throws Rejection 400 when the body is not an export, 413 beyond the bytes, spans or events
     *                   allowed, 503 when what reading holds does not fit the budget now
     */
    public List<MappedSpan> read(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation, SpanQuota quota) {
        return read(body, format, new HeldBytes(reservation), quota);
    }

    /** Every span decoded, holding nothing in any budget. */
    public List<MappedSpan> read(byte[] body, OtlpFormat format) {
        return read(body, format, HeldBytes.NONE, SpanQuota.NONE);
    }

    private List<MappedSpan> read(byte[] body, OtlpFormat format, HeldBytes held, SpanQuota quota) {
        ServerSpans servers = new ServerSpans();
        OverQuota overQuota = new OverQuota(quota);
        Mapping mapping = new Mapping(held);
        long[] indexed = {0};
        try {
            spans.forEachSpan(body, format, held, overQuota::takes, span -> {
                long bytes = servers.add(span);
                held.take(bytes);
                indexed[0] += bytes;
                mapping.mapOrWait(span);
            });
            mapping.throwIfRefused();
            if (mapping.anyWaiting()) {
                int[] place = {0}; // the second reading hands the spans over in the order of the first
                spans.forEachSpan(body, format, held, overQuota::took, span -> mapping.mapIfWaiting(place[0]++, span, servers));
                mapping.throwIfRefused();
            }
            return overQuota.inOrder(mapping.spans);
        } finally {
            held.giveBack(indexed[0]); // garbage once the spans are mapped
        }
    }

    /**
     * A log export: what each of its records became, in order; each takes its share of the quota
     * before it is decoded, as a span does.
     *
     * @throws Rejection as {@link #read(byte[], OtlpFormat, InFlightBudget.Reservation, SpanQuota)}
     */
    public List<MappedSpan> readLogs(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation, SpanQuota quota) {
        HeldBytes held = new HeldBytes(reservation);
        OverQuota overQuota = new OverQuota(quota);
        Mapping mapping = new Mapping(held);
        logs.forEachItem(body, format, held, overQuota::takes, (resource, record) -> mapping.add(LogRecordMapper.map(resource, record)));
        return overQuota.inOrder(mapping.spans);
    }

    /**
     * A metric export: how many data points it holds. Nothing of it is stored, so its metrics take
     * no quota (the request took its one share at the head), only the decode's bounds.
     *
     * @throws Rejection 400 when the body is not an export, 413 beyond the bytes or metrics allowed,
     *                   503 when what decoding a metric holds does not fit the budget now
     */
    public long metricPoints(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation) {
        long[] points = {0};
        metrics.forEachItem(body, format, new HeldBytes(reservation), metric -> true,
                (resource, metric) -> points[0] += MetricPoints.of(metric));
        return points[0];
    }

    /** The spans of an export over its quota: asked once each, on the first reading, and remembered for the second. */
    private static final class OverQuota {
        private final SpanQuota quota;
        private final BitSet over = new BitSet();
        private int spans;
        private Rejection limit;

        OverQuota(SpanQuota quota) {
            this.quota = quota;
        }

        /** Whether the span took its share of the quota. */
        boolean takes(int span) {
            spans = span + 1;
            Rejection refused = quota.take(span);
            if (refused == null) {
                return true;
            }
            over.set(span);
            limit = refused;
            return false;
        }

        boolean took(int span) {
            return !over.get(span);
        }

        /** The spans mapped, with those over the quota in their places. */
        List<MappedSpan> inOrder(List<MappedSpan> mapped) {
            if (over.isEmpty()) {
                return mapped;
            }
            List<MappedSpan> all = new ArrayList<>(spans);
            Iterator<MappedSpan> next = mapped.iterator();
            for (int span = 0; span < spans; span++) {
                all.add(over.get(span) ? MappedSpan.overQuota(limit) : next.next());
            }
            return all;
        }
    }

    /**
     * The spans (or log records) mapped so far, and their events, held until the request is answered.
     * A trace export's spans are mapped as they are first read, but for a span whose exceptions
     * need the server span of their request ({@link SpanMapper#needsServerSpans}), which may come
     * later in the export: it waits, in its place, to be mapped on a second reading once every span
     * is indexed. A second reading happens only for an export that holds such a span.
     */
    private final class Mapping {
        final HeldBytes held;
        final List<MappedSpan> spans = new ArrayList<>();
        /** The places in {@link #spans} of the spans waiting for the whole index. */
        final BitSet waiting = new BitSet();
        long events;
        /**
         * Why the export's events cannot all be held, found while the export is still read: thrown
         * once it is read, so that what is wrong with the body further on is what its answer says.
         */
        Rejection refused;

        Mapping(HeldBytes held) {
            this.held = held;
        }

        void mapOrWait(OtlpSpan span) {
            int place = spans.size();
            spans.add(null);
            if (SpanMapper.needsServerSpans(span)) {
                waiting.set(place);
            } else {
                set(place, SpanMapper.map(span));
            }
        }

        boolean anyWaiting() {
            return !waiting.isEmpty();
        }

        void mapIfWaiting(int place, OtlpSpan span, ServerSpans servers) {
            if (waiting.get(place)) {
                set(place, SpanMapper.map(span, servers));
            }
        }

        void throwIfRefused() {
            if (refused != null) {
                throw refused;
            }
        }

        private void set(int place, MappedSpan mapped) {
            if (refused != null) {
                return;
            }
            try {
                hold(mapped);
            } catch (Rejection tooMany) {
                refused = tooMany;
                return;
            }
            spans.set(place, mapped);
        }

        void add(MappedSpan mapped) {
            hold(mapped);
            spans.add(mapped);
        }

        /** Counts and holds the span's events; 413 beyond the events an export may make, 503 when they do not fit the budget now. */
        private void hold(MappedSpan mapped) {
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
        }
    }
}
