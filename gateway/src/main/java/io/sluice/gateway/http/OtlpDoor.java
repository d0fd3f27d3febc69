package io.sluice.gateway.http;

import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.gateway.admit.Admitted;
import io.sluice.gateway.ingest.OtlpSignal;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.otlp.ExportAnswers;
import io.sluice.gateway.otlp.ExportReader;
import io.sluice.gateway.otlp.LogRecordMapper;
import io.sluice.gateway.otlp.MappedSpan;
import io.sluice.gateway.otlp.MetricPoints;
import io.sluice.gateway.otlp.OtlpFormat;
import io.sluice.gateway.otlp.OtlpItem;
import io.sluice.gateway.otlp.SpanMapper;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * {@code /api/v1/<token>/otlp/v1/traces}, {@code …/logs} and {@code …/metrics}: an OTLP/HTTP export
 * of its {@link OtlpSignal}, protobuf or JSON, with the project's private key. A trace export's
 * spans become events ({@link ExportReader}): each refused alone, so one span's bad status code
 * does not refuse the others; spans not stored are counted. Each span's events go through the
 * path's {@link EventCheck} as soon as the span is mapped, validated from the tree written with
 * them: the export holds one span's trees at a time, and then only the bytes to publish. Each span takes the project's share
 * of the quota before it is decoded (the head took the first span's), each of its events its
 * endpoint's, and each event after a span's first the project's too: a span over the quota costs
 * no decode. A log export's records go the same way (a record with an exception is an error, the
 * others are counted); a metric export's data points are all counted, none stored, and its
 * metrics take no quota beyond the head's. Answers as OTLP/HTTP asks, in the request's encoding:
 * 200 with {@code partial_success} naming how many spans (log records) were rejected (a span with
 * any event not stored; each event is a part of its span's number), errors as a {@code google.rpc.Status}.
 */
final class OtlpDoor implements FrontDoor {
    private final GatewayServices services;
    private final OtlpSignal signal;

    OtlpDoor(GatewayServices services, OtlpSignal signal) {
        this.services = services;
        this.signal = signal;
    }

    @Override
    public Items read(Admitted admitted, FullHttpRequest request, long receivedAt) {
        String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        OtlpFormat format = OtlpFormat.of(contentType);
        byte[] body = FrontDoor.decodedBody(services, admitted, request);
        ExportReader.SpanQuota quota = admitted.quota()::takePart;
        List<Item> items = new ArrayList<>();
        switch (signal) {
            case TRACES -> {
                Parts spans = new Parts(new EventCheck(services, admitted, receivedAt), "span", SpanMapper.NOT_STORED);
                services.otlp().read(body, format, admitted.reservation(), quota, spans);
                spans.addTo(items);
            }
            case LOGS -> {
                Parts records = new Parts(new EventCheck(services, admitted, receivedAt), "log_record", LogRecordMapper.NOT_STORED);
                services.otlp().readLogs(body, format, admitted.reservation(), quota, records);
                records.addTo(items);
            }
            case METRICS -> {
                long points = services.otlp().metricPoints(body, format, admitted.reservation());
                items.add(new Item.Counted(counts -> counts.merge(MetricPoints.NOT_STORED, points, Long::sum)));
            }
        }
        // The body is garbage once its items are mapped (and the request's is released on return):
        // while the events are published, the request holds them, not it.
        admitted.reservation().giveBack(body.length);
        return new Items(admitted, Caller.of(admitted, request), items);
    }

    /**
     * The items of what each span (log record) became, each its own part, as it is mapped: refused
     * ({@code field} named), counted as {@code notStored}, over the quota, and its events, each
     * through the path's {@link EventCheck} at once (so only what is published of it stays held).
     */
    private static final class Parts implements ExportReader.SpanTaker {
        private final EventCheck check;
        private final String field;
        private final Item counted;
        /** Each part's items, by its number. */
        private final List<List<Item>> parts = new ArrayList<>();

        Parts(EventCheck check, String field, QualifiedOutcome notStored) {
            this.check = check;
            this.field = field;
            this.counted = new Item.Counted(counts -> counts.merge(notStored, 1L, Long::sum));
        }

        @Override
        public long take(int part, MappedSpan span) {
            List<Item> items = new ArrayList<>(span.items().size() + 1);
            if (span.kind() == MappedSpan.Kind.REJECTED) {
                items.add(new Item.Refused(Rejection.invalid(field, span.rejection()), part));
            } else if (span.kind() == MappedSpan.Kind.NOT_STORED) {
                items.add(counted);
            } else if (span.kind() == MappedSpan.Kind.OVER_QUOTA) {
                items.add(new Item.OverQuota(span.limit(), part));
            }
            long kept = 0;
            for (OtlpItem event : span.items()) {
                Item checked = check.written(event.endpoint(), part, event.event());
                if (checked instanceof Item.Accepted accepted) {
                    kept += accepted.event().json().length + (accepted.event().fields() == null ? 0 : accepted.event().fields().length);
                }
                items.add(checked);
            }
            while (parts.size() <= part) {
                parts.add(List.of());
            }
            parts.set(part, items);
            return kept;
        }

        /** Every part's items, in the order of the parts. */
        void addTo(List<Item> items) {
            parts.forEach(items::addAll);
        }
    }

    @Override
    public FullHttpResponse answer(Handled handled, Caller caller) {
        OtlpFormat format = formatOf(caller);
        if (handled.unconfirmed()) {
            return status(format, Responses.PUBLISH_UNCONFIRMED);
        }
        if (handled.published() == 0 && handled.refused() == 0 && handled.limited() != null) {
            return status(format, handled.limited()); // every event over quota: 429, which exporters retry
        }
        // OTLP counts rejected spans (log records); a span's events (a transaction, an error per exception) are its parts.
        long rejected = handled.rejectedParts();
        String item = signal == OtlpSignal.LOGS ? "log record" : "span";
        String why = "";
        if (handled.overQuota() > 0) {
            why = handled.overQuota() + " " + item + (handled.overQuota() == 1 ? " or event" : "s or events")
                    + " over the project's quota (" + handled.limited().getMessage() + ")";
        }
        if (handled.refused() > 0) {
            why += (why.isEmpty() ? "" : "; ") + handled.refused() + " events or " + item + "s refused, the first because "
                    + handled.firstRefusal();
        }
        return Responses.response(HttpResponseStatus.OK, ExportAnswers.success(format, signal, rejected,
                rejected == 0 ? "" : rejected + " " + item + (rejected == 1 ? " was" : "s were") + " not stored in full: " + why),
                format.contentType());
    }

    @Override
    public FullHttpResponse refusal(Rejection refusal, Caller caller) {
        return status(formatOf(caller), refusal);
    }

    private static FullHttpResponse status(OtlpFormat format, Rejection refusal) {
        return Responses.refusal(refusal, ExportAnswers.status(format, refusal.status(), refusal.getMessage()), format.contentType());
    }

    /** The request's encoding; JSON when it named none OTLP has (a 415's answer, a refusal from the head). */
    private static OtlpFormat formatOf(Caller caller) {
        try {
            return OtlpFormat.of(caller.contentType());
        } catch (Rejection notOtlp) {
            return OtlpFormat.JSON;
        }
    }
}
