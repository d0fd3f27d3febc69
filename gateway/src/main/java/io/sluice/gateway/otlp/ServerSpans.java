package io.sluice.gateway.otlp;

import java.util.HashMap;
import java.util.Map;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.trace.v1.Span;

/**
 * The spans of one export by trace and span id, each with its parent, and a server span with the
 * request it handled: so an exception recorded on a child span (a database call inside the
 * request) is told the route and name of the request it was raised in, found by walking up the
 * parents within the same trace and export. A server span exported in another export is not
 * found (SDKs export a child before its parent ends, often in the same batch). Holds about
 * {@link #ENTRY_BYTES} a span, plus a server span's name, method, URL and route.
 */
final class ServerSpans {
    /** None: no span has a server span. */
    static final ServerSpans NONE = new ServerSpans();

    /** A hash map entry, its key (trace and span id) and its node (the parent id). */
    static final long ENTRY_BYTES = 200;

    /** The request a server span handled, as its events name it. */
    record Served(String transaction, SpanMapper.Http http) {
        long bytes() {
            return 2L * (transaction.length() + http.method().length() + http.url().length() + http.route().length());
        }
    }

    private record Node(ByteString parentSpanId, Served served) {
    }

    private final Map<ByteString, Node> byId = new HashMap<>();

    /** Adds a span (a span without valid ids is left out: it is refused); returns the bytes it holds. */
    long add(OtlpSpan otlp) {
        Span span = otlp.span;
        if (span.getTraceId().size() != 16 || span.getSpanId().size() != 8) {
            return 0;
        }
        Attributes attributes = Attributes.of(span.getAttributesList());
        Served served = null;
        if (SpanMapper.isServer(span, attributes)) {
            SpanMapper.Http http = SpanMapper.Http.of(attributes);
            served = new Served(SpanMapper.transactionName(span, http), http);
        }
        // Only a parent id of a span id's size is kept: any other finds nothing, and a long one would be held uncounted.
        ByteString parent = span.getParentSpanId().size() == 8 ? span.getParentSpanId() : ByteString.EMPTY;
        byId.put(span.getTraceId().concat(span.getSpanId()), new Node(parent, served));
        return ENTRY_BYTES + (served == null ? 0 : served.bytes());
    }

    /**
     * How far up a span's parents the server span is looked for: far deeper than real call trees,
     * and a bound on the walk per exception (a client's parents may loop, or chain 10,000 deep).
     */
    static final int MAX_DEPTH = 64;

    /**
     * The request the span was part of: that of its nearest ancestor that is a server span in
     * this export, at most {@link #MAX_DEPTH} parents up, or null.
     */
    Served servedBy(Span span) {
        ByteString parent = span.getParentSpanId();
        for (int step = 0; step < MAX_DEPTH && parent.size() == 8; step++) {
            Node node = byId.get(span.getTraceId().concat(parent));
            if (node == null) {
                return null;
            }
            if (node.served() != null) {
                return node.served();
            }
            parent = node.parentSpanId();
        }
        return null;
    }
}
