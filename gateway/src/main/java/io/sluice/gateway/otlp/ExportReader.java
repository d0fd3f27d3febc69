package io.sluice.gateway.otlp;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.sluice.gateway.admit.InFlightBudget;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * OTLP/HTTP exports, a body already decompressed, read with the limits: a trace export into what
 * its spans became, a log export into what its log records became ({@link LogRecordMapper}), each
 * handed to the caller's {@link SpanTaker} as soon as it is mapped (the door validates its events
 * there, so an export holds one span's JSON trees at a time), a metric export into the number of
 * its data points (none stored, {@link MetricPoints}). Each
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
 * refused further on (400, 413) keeps what the spans before took, as a request refused keeps its head's;
 * once its events are beyond the limit, the spans after take none, and are read only for what else
 * is wrong with the body, not mapped.
 *
 * <p>What reading holds beyond the body is taken from the request's in-flight reservation: the
 * span being decoded and its resource, the index, a span's events as written while the taker takes
 * them, and what it keeps of them (until the request is answered). Decoding the export whole would hold about 8 times its protobuf size.
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

    /**
     * What a reader's caller makes of each span (log record) as soon as it is mapped: the door
     * validates its events there, so that an export holds a span's events as written (and their
     * trees) only while they are validated, and afterwards only what is kept of them.
     */
    @FunctionalInterface
    public interface SpanTaker {
        /**
         * @param part the span's number in its export, from 0: each is taken once, not always in order (a span that
         *             waits for the whole index is taken once every span was read)
         * @return the bytes kept of it until its request is answered, held meanwhile in the request's reservation
         */
        long take(int part, MappedSpan span);
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
     * Hands what each span became to {@code taker}, as it is mapped.
     *
     * @param reservation the request's share of the in-flight budget, where what reading holds is taken
     * @param quota       asked for each span before it is decoded
     * @throws Rejection 400 when the body is not an export, 413 beyond the bytes, spans or events
     *                   allowed, 503 when what reading holds does not fit the budget now
     */
    public void read(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation, SpanQuota quota, SpanTaker taker) {
        read(body, format, new HeldBytes(reservation), quota, taker);
    }

    /** What each span became, in order, each held as written: see {@link #read(byte[], OtlpFormat, InFlightBudget.Reservation, SpanQuota, SpanTaker)}. */
    public List<MappedSpan> read(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation, SpanQuota quota) {
        Kept kept = new Kept();
        read(body, format, new HeldBytes(reservation), quota, kept);
        return kept.inOrder();
    }

    /** Every span decoded, holding nothing in any budget. */
    public List<MappedSpan> read(byte[] body, OtlpFormat format) {
        Kept kept = new Kept();
        read(body, format, HeldBytes.NONE, SpanQuota.NONE, kept);
        return kept.inOrder();
    }

    private void read(byte[] body, OtlpFormat format, HeldBytes held, SpanQuota quota, SpanTaker taker) {
        ServerSpans servers = new ServerSpans();
        Mapping mapping = new Mapping(held, taker);
        OverQuota overQuota = new OverQuota(quota);
        long[] indexed = {0};
        try {
            // Once the export is refused (its events beyond the limit), the spans after are still read, so that what is
            // wrong with the body further on is what its answer says, but not charged, indexed or mapped.
            spans.forEachSpan(body, format, held, span -> mapping.refused != null || overQuota.takes(span), span -> {
                int part = overQuota.nextDecoded();
                if (mapping.refused != null) {
                    return;
                }
                long bytes = servers.add(span);
                held.take(bytes);
                indexed[0] += bytes;
                mapping.mapOrWait(part, span);
            });
            mapping.throwIfRefused();
            overQuota.handOver(taker);
            if (mapping.anyWaiting()) {
                overQuota.rewind();
                spans.forEachSpan(body, format, held, overQuota::took,
                        span -> mapping.mapIfWaiting(overQuota.nextDecoded(), span, servers));
                mapping.throwIfRefused();
            }
        } finally {
            held.giveBack(indexed[0]); // garbage once the spans are mapped
        }
    }

    /**
     * A log export: hands what each of its records became to {@code taker}, as it is mapped, in
     * order; each takes its share of the quota before it is decoded, as a span does.
     *
     * @throws Rejection as {@link #read(byte[], OtlpFormat, InFlightBudget.Reservation, SpanQuota, SpanTaker)}
     */
    public void readLogs(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation, SpanQuota quota,
                         SpanTaker taker) {
        Mapping mapping = new Mapping(new HeldBytes(reservation), taker);
        OverQuota overQuota = new OverQuota(quota);
        logs.forEachItem(body, format, mapping.held, overQuota::takes,
                (resource, record) -> mapping.take(overQuota.nextDecoded(), LogRecordMapper.map(resource, record)));
        overQuota.handOver(taker);
    }

    /** What each log record became, in order, each held as written. */
    public List<MappedSpan> readLogs(byte[] body, OtlpFormat format, InFlightBudget.Reservation reservation, SpanQuota quota) {
        Kept kept = new Kept();
        readLogs(body, format, reservation, quota, kept);
        return kept.inOrder();
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

    /**
     * The spans of an export over its quota: asked once each, on the first reading, and remembered
     * for the second; handed over once the first reading is done, each with the last 429.
     */
    private static final class OverQuota {
        private final SpanQuota quota;
        private final BitSet over = new BitSet();
        /** The number of the span decoded last in the reading under way. */
        private int decoded = -1;
        private Rejection limit;

        OverQuota(SpanQuota quota) {
            this.quota = quota;
        }

        /** Whether the span took its share of the quota. */
        boolean takes(int span) {
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

        /**
         * The number of the span decoded now: the next not over the quota (a JSON export's spans are
         * asked about a {@code ResourceSpans} at a time, before its first is decoded).
         */
        int nextDecoded() {
            decoded = over.nextClearBit(decoded + 1);
            return decoded;
        }

        /** Before another reading of the export. */
        void rewind() {
            decoded = -1;
        }

        void handOver(SpanTaker taker) {
            over.stream().forEach(span -> taker.take(span, MappedSpan.overQuota(limit)));
        }
    }

    /** Keeps every span as mapped, its events held as written until its request is answered. */
    private static final class Kept implements SpanTaker {
        private final List<MappedSpan> spans = new ArrayList<>();

        @Override
        public long take(int part, MappedSpan span) {
            while (spans.size() <= part) {
                spans.add(null);
            }
            spans.set(part, span);
            return writtenBytes(span);
        }

        List<MappedSpan> inOrder() {
            return spans;
        }
    }

    /** The bytes of a span's events as written. */
    static long writtenBytes(MappedSpan span) {
        long bytes = 0;
        for (OtlpItem item : span.items()) {
            bytes += item.json().length;
        }
        return bytes;
    }

    /**
     * The spans (or log records) being mapped, each handed to the taker as it is, and the events
     * they made so far. A trace export's spans are mapped as they are first read, but for a span
     * whose exceptions need the server span of their request ({@link SpanMapper#needsServerSpans}),
     * which may come later in the export: it waits to be mapped on a second reading once every span
     * is indexed. A second reading happens only for an export that holds such a span.
     */
    private final class Mapping {
        final HeldBytes held;
        final SpanTaker taker;
        /** The numbers of the spans waiting for the whole index. */
        final BitSet waiting = new BitSet();
        long events;
        /**
         * Why the export's events cannot all be held, found while the export is still read: thrown
         * once it is read, so that what is wrong with the body further on is what its answer says.
         * No span is mapped once it is found.
         */
        Rejection refused;

        Mapping(HeldBytes held, SpanTaker taker) {
            this.held = held;
            this.taker = taker;
        }

        void mapOrWait(int part, OtlpSpan span) {
            if (SpanMapper.needsServerSpans(span)) {
                waiting.set(part);
            } else {
                takeOrRefuse(part, SpanMapper.map(span));
            }
        }

        boolean anyWaiting() {
            return !waiting.isEmpty();
        }

        void mapIfWaiting(int part, OtlpSpan span, ServerSpans servers) {
            if (refused == null && waiting.get(part)) {
                takeOrRefuse(part, SpanMapper.map(span, servers));
            }
        }

        void throwIfRefused() {
            if (refused != null) {
                throw refused;
            }
        }

        private void takeOrRefuse(int part, MappedSpan mapped) {
            try {
                take(part, mapped);
            } catch (Rejection tooMany) {
                refused = tooMany;
            }
        }

        /**
         * Counts the span's events, 413 beyond those an export may make; holds them as written while
         * the taker takes the span, then what it kept (503 when either does not fit the budget now).
         */
        void take(int part, MappedSpan mapped) {
            events += mapped.items().size();
            if (events > maxEvents) {
                throw new Rejection(Outcome.BODY_TOO_LARGE, "an export may make at most " + maxEvents
                        + " events (a transaction per server span, an error per exception event); send smaller batches");
            }
            long written = writtenBytes(mapped);
            held.take(written);
            long kept;
            try {
                kept = taker.take(part, mapped);
            } finally {
                held.giveBack(written);
            }
            held.take(kept);
        }
    }
}
