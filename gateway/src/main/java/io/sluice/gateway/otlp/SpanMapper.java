package io.sluice.gateway.otlp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.google.protobuf.ByteString;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.events.SampleRate;
import io.sluice.events.SentryFields;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.EventWriter;
import io.sluice.gateway.validate.WrittenEvent;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * A span as the events Sluice stores, in the JSON the v1 and Sentry endpoints take (so one
 * validator reads them all, and the processor cannot tell them apart). OpenTelemetry's HTTP
 * semantic conventions, current names first and the older ones after:
 * <ul>
 * <li>a <b>server</b> span (kind SERVER, or a root span with HTTP server attributes) is one
 * handled request, a transaction of op {@code http.server} ({@code rpc.server} for an RPC):
 * method {@code http.request.method}/{@code http.method}, route {@code http.route} as sent,
 * status {@code http.response.status_code}/{@code http.status_code}, URL {@code url.full}/{@code http.url}
 * or {@code url.path}+{@code url.query}/{@code http.target}, start and end times;
 * <li>from the resource: {@code deployment.environment.name}/{@code deployment.environment} as the
 * environment, {@code service.version} as the release, {@code telemetry.sdk.*} as the SDK, {@code process.runtime.*},
 * {@code os.*}, {@code service.name} and {@code service.version} as tags; {@code user.id}/{@code enduser.id} of the span as the user;
 * <li>each {@code exception} event of any span is an error report: {@code exception.type},
 * {@code exception.message}, and the frames of {@code exception.stacktrace} ({@link StackTraceText}),
 * with the request it was raised in: its span's own when a server span, else that of its nearest
 * ancestor that is one in the same export ({@link ServerSpans}).
 * </ul>
 * Other spans are not stored ({@link #NOT_STORED}). Event ids come from the span's ids
 * ({@link SpanEventIds}), so a retried export is counted once.
 *
 * <p>Text copied from a resource or a span into every event made of it is cut to
 * {@link #MAX_COPIED_CHARS}: a resource shared by 10,000 spans, or a span with 32 exceptions,
 * cannot multiply a large value into each. What is written once (a span's own attributes, into
 * its transaction; an exception's, into its error) is bounded by the body it came in.
 */
public final class SpanMapper {
    /** Exception events of one span made into errors; a span with more is refused (a loop that records the same exception, say). */
    public static final int MAX_EXCEPTIONS_PER_SPAN = 32;
    /** Longest text copied into each event of a span or resource (the URL, the service's name); Sentry cuts tags at 200. */
    static final int MAX_COPIED_CHARS = 1024;
    /** The outcome of a span that is not stored (neither a request nor an error). */
    public static final QualifiedOutcome NOT_STORED = QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, "otlp_span");

    static final JsonFactory JSON = JsonFactory.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    private static final String HTTP_SERVER = "http.server";
    private static final Set<String> HTTP_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
            "PATCH");
    /** The names written into {@code contexts.trace.data} by this class, so a span's attribute of the same name is not written twice. */
    private static final Set<String> DATA_FIELDS = Set.of("method", "url", "http.route");
    /** The attributes an error's {@code exception} is written from, not written again as its data. */
    static final Set<String> EXCEPTION_FIELDS = Set.of("exception.type", "exception.message", "exception.stacktrace");

    private SpanMapper() {
    }

    /** A span alone: an exception on a span other than a server span names no request. */
    public static MappedSpan map(OtlpSpan otlp) {
        return map(otlp, ServerSpans.NONE);
    }

    /** @param servers the export's spans, where an exception on a child span finds the request it was raised in */
    static MappedSpan map(OtlpSpan otlp, ServerSpans servers) {
        Span span = otlp.span;
        if (span.getTraceId().size() != 16 || isZero(span.getTraceId())) {
            return MappedSpan.rejected("a span's trace id must be 16 bytes, not all zero");
        }
        if (span.getSpanId().size() != 8 || isZero(span.getSpanId())) {
            return MappedSpan.rejected("a span's span id must be 8 bytes, not all zero");
        }
        Attributes attributes = Attributes.of(span.getAttributesList());
        Http http = Http.of(attributes);
        boolean request = isServer(span, attributes);
        List<OtlpItem> items = new ArrayList<>();
        ServerSpans.Served served = null;
        try {
            if (request) {
                items.add(new OtlpItem(Endpoint.TRANSACTION, transaction(otlp, attributes, http)));
            }
            int exceptions = 0;
            for (Span.Event event : span.getEventsList()) {
                if (!"exception".equals(event.getName())) {
                    continue;
                }
                if (exceptions == MAX_EXCEPTIONS_PER_SPAN) {
                    return MappedSpan.rejected("a span may have at most " + MAX_EXCEPTIONS_PER_SPAN + " exception events");
                }
                if (served == null) {
                    served = request ? new ServerSpans.Served(transactionName(span, http), http) : servers.servedBy(span);
                }
                items.add(new OtlpItem(Endpoint.ERROR_REPORT, error(otlp, attributes, http, event, exceptions++, request, served)));
            }
        } catch (IOException unwritable) {
            // Not expected: the decoder lets no text through that JSON cannot hold.
            return MappedSpan.rejected("a span could not be written as an event: " + unwritable.getMessage());
        }
        return new MappedSpan(request ? MappedSpan.Kind.REQUEST : MappedSpan.Kind.NOT_STORED, List.copyOf(items), null);
    }

    /**
     * Whether the span's events need the export's other spans ({@link ServerSpans}): an exception on
     * a span that is not a server span is told the request it was raised in by its ancestors, which
     * may come later in the export.
     */
    static boolean needsServerSpans(OtlpSpan otlp) {
        Span span = otlp.span;
        for (Span.Event event : span.getEventsList()) {
            if ("exception".equals(event.getName())) {
                return !isServer(span, Attributes.of(span.getAttributesList()));
            }
        }
        return false;
    }

    /** Kind SERVER; or a root span of no other kind that has an HTTP method and a route, path or status (an SDK that sets no kind). */
    static boolean isServer(Span span, Attributes attributes) {
        if (span.getKind() == Span.SpanKind.SPAN_KIND_SERVER) {
            return true;
        }
        boolean unkinded = span.getKind() == Span.SpanKind.SPAN_KIND_UNSPECIFIED || span.getKind() == Span.SpanKind.SPAN_KIND_INTERNAL;
        boolean root = span.getParentSpanId().isEmpty();
        boolean serverAttributes = attributes.first(Http.METHOD) != null && (attributes.has("http.route")
                || attributes.has("url.path") || attributes.has("http.target") || attributes.first(Http.STATUS) != null);
        return unkinded && root && serverAttributes;
    }

    /** The HTTP attributes of a span, by their current semantic-convention names, else the older ones. */
    record Http(String method, String route, String url, AnyValue statusCode) {
        static final String[] METHOD = {"http.request.method", "http.method"};
        static final String[] STATUS = {"http.response.status_code", "http.status_code"};

        static Http of(Attributes attributes) {
            String url = attributes.text("url.full", "http.url");
            if (url.isEmpty() && attributes.has("url.path")) {
                String query = attributes.text("url.query");
                url = attributes.text("url.path") + (query.isEmpty() ? "" : "?" + query);
            }
            if (url.isEmpty()) {
                url = attributes.text("http.target");
            }
            return new Http(cut(attributes.text(METHOD)), cut(attributes.text("http.route")), cut(url), attributes.first(STATUS));
        }

        /** The path of the URL: without scheme, authority, query and fragment; "" when it has none. */
        String path() {
            String rest = url;
            int scheme = rest.indexOf("://");
            if (scheme > 0) {
                int slash = rest.indexOf('/', scheme + 3);
                rest = slash < 0 ? "" : rest.substring(slash);
            }
            int end = rest.length();
            for (int i = 0; i < rest.length() && end == rest.length(); i++) {
                if (rest.charAt(i) == '?' || rest.charAt(i) == '#') {
                    end = i;
                }
            }
            return rest.startsWith("/") ? rest.substring(0, end) : "";
        }
    }

    private static WrittenEvent transaction(OtlpSpan otlp, Attributes attributes, Http http) throws IOException {
        Span span = otlp.span;
        EventWriter json = writer(256 + span.getSerializedSize());
        try (json) {
            json.writeStartObject();
            json.writeStringField("event_id", SpanEventIds.transaction(span.getTraceId(), span.getSpanId()));
            json.writeStringField("type", "transaction");
            json.writeStringField("transaction", transactionName(span, http));
            if (!http.route().isEmpty()) {
                json.writeObjectFieldStart("transaction_info");
                json.writeStringField("source", "route");
                json.writeEndObject();
            }
            writeTime(json, "start_timestamp", span.getStartTimeUnixNano());
            writeTime(json, "timestamp", span.getEndTimeUnixNano() != 0 ? span.getEndTimeUnixNano() : span.getStartTimeUnixNano());
            writeSampleRate(json, span.getTraceState());
            writeRequest(json, http);
            writeClient(json, otlp.resource, attributes, http.statusCode());
            json.writeObjectFieldStart("contexts");
            writeTrace(json, span, attributes.has("rpc.system") ? "rpc.server" : HTTP_SERVER, http, http.route(), attributes, Set.of());
            writeRuntimeAndOs(json, otlp.resource);
            json.writeEndObject();
            json.writeEndObject();
        }
        return json.written();
    }

    /**
     * A writer of an event's JSON that builds, as it writes, the tree the validator reads
     * ({@link EventWriter}): the event is not parsed again. {@code sizeHint}: its bytes, about.
     */
    static EventWriter writer(int sizeHint) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        return new EventWriter(JSON.createGenerator(out), out);
    }

    /**
     * The span's sampling probability as the transaction's {@code sample_rate} ({@link SampleRate#FIELD}),
     * when its trace state has a threshold; one that cannot be read is written as text, which the
     * one reader of rates ({@link SampleRate}) counts as 1 and as invalid.
     */
    private static void writeSampleRate(JsonGenerator json, String traceState) throws IOException {
        if (traceState.isEmpty()) {
            return;
        }
        double probability = TraceStateThreshold.probability(traceState);
        if (Double.isNaN(probability)) {
            json.writeStringField(SampleRate.FIELD, "unreadable ot=th");
        } else if (probability != TraceStateThreshold.NONE) {
            json.writeNumberField(SampleRate.FIELD, probability);
        }
    }

    /** @param served the request the exception was raised in (its span's, or its server span's), or null when not known */
    private static WrittenEvent error(OtlpSpan otlp, Attributes spanAttributes, Http http, Span.Event event, int index,
                                      boolean request, ServerSpans.Served served) throws IOException {
        Span span = otlp.span;
        Attributes attributes = Attributes.of(event.getAttributesList());
        EventWriter json = writer(256 + event.getSerializedSize());
        try (json) {
            json.writeStartObject();
            json.writeStringField("event_id", SpanEventIds.exception(span.getTraceId(), span.getSpanId(), index));
            json.writeStringField("level", "error");
            long time = event.getTimeUnixNano() != 0 ? event.getTimeUnixNano()
                    : span.getEndTimeUnixNano() != 0 ? span.getEndTimeUnixNano() : span.getStartTimeUnixNano();
            writeTime(json, "timestamp", time);
            if (served != null) {
                // The request it was raised in; a child span's own URL is an outgoing call's, not the request's.
                json.writeStringField("transaction", served.transaction());
                writeRequest(json, served.http());
            }
            writeClient(json, otlp.resource, spanAttributes, null);
            writeException(json, attributes);
            json.writeObjectFieldStart("contexts");
            writeTrace(json, span, request ? HTTP_SERVER : "", http, served != null ? served.http().route() : http.route(), attributes,
                    EXCEPTION_FIELDS);
            writeRuntimeAndOs(json, otlp.resource);
            json.writeEndObject();
            json.writeEndObject();
        }
        return json.written();
    }

    /**
     * The error's {@code exception} from OpenTelemetry's exception attributes ({@code exception.type},
     * {@code exception.message}, {@code exception.stacktrace}: its frames, and the text as sent, cut, in {@code extra}).
     */
    static void writeException(JsonGenerator json, Attributes attributes) throws IOException {
        json.writeObjectFieldStart("exception");
        json.writeArrayFieldStart("values");
        json.writeStartObject();
        String type = attributes.text("exception.type");
        if (!type.isEmpty()) {
            json.writeStringField("type", type);
        }
        String message = attributes.text("exception.message");
        if (!message.isEmpty()) {
            json.writeStringField("value", message);
        }
        String stacktrace = attributes.text("exception.stacktrace");
        writeFrames(json, StackTraceText.frames(stacktrace));
        json.writeEndObject();
        json.writeEndArray();
        json.writeEndObject();
        if (!stacktrace.isEmpty()) {
            json.writeObjectFieldStart("extra");
            json.writeStringField("exception.stacktrace", cut(stacktrace, StackTraceText.MAX_CHARS));
            json.writeEndObject();
        }
    }

    /**
     * {@code METHOD route} for a request with a route, the span's name when it says more than the
     * method (semantic conventions name a server span {@code METHOD route}, or just {@code METHOD}),
     * else {@code METHOD path}.
     */
    static String transactionName(Span span, Http http) {
        String method = http.method();
        if (!http.route().isEmpty()) {
            return method.isEmpty() ? http.route() : method + " " + http.route();
        }
        String name = cut(span.getName().strip());
        boolean onlyMethod = name.isEmpty() || HTTP_METHODS.contains(name) || name.equals("_OTHER") || name.equals("HTTP");
        String path = http.path();
        if (onlyMethod && !path.isEmpty()) {
            return method.isEmpty() ? path : method + " " + path;
        }
        return name.isEmpty() ? (method.isEmpty() ? "(unnamed span)" : method) : name;
    }

    private static void writeRequest(JsonGenerator json, Http http) throws IOException {
        if (http.method().isEmpty() && http.url().isEmpty()) {
            return;
        }
        json.writeObjectFieldStart("request");
        writeIfPresent(json, "method", http.method());
        writeIfPresent(json, "url", http.url());
        json.writeEndObject();
    }

    /** Environment, user, SDK and tags: who sent it, from the resource (and the span's user). */
    static void writeClient(JsonGenerator json, Attributes resource, Attributes span, AnyValue statusCode) throws IOException {
        writeIfPresent(json, "environment", cut(firstNonEmpty(
                resource.text("deployment.environment.name", "deployment.environment"),
                span.text("deployment.environment.name", "deployment.environment"))));
        writeIfPresent(json, SentryFields.RELEASE, cut(resource.text("service.version")));
        String user = cut(span.text("user.id", "enduser.id"));
        if (!user.isEmpty()) {
            json.writeObjectFieldStart("user");
            json.writeStringField("id", user);
            json.writeEndObject();
        }
        String sdkName = cut(resource.text("telemetry.sdk.name"));
        String language = cut(resource.text("telemetry.sdk.language"));
        if (!sdkName.isEmpty()) {
            json.writeObjectFieldStart("sdk");
            json.writeStringField("name", language.isEmpty() ? sdkName : sdkName + "." + language);
            writeIfPresent(json, "version", cut(resource.text("telemetry.sdk.version")));
            json.writeEndObject();
        }
        json.writeObjectFieldStart("tags");
        for (String tag : new String[] {"service.name", "service.version", "service.namespace"}) {
            writeIfPresent(json, tag, cut(resource.text(tag)));
        }
        if (statusCode != null) {
            json.writeFieldName("http.status_code");
            Attributes.write(json, statusCode, Attributes.MAX_VALUE_DEPTH); // as sent: the validator says what is wrong with it
        }
        json.writeEndObject();
    }

    /**
     * {@code contexts.trace}: the ids, the op, and the HTTP fields, the {@code route} (the request's,
     * whose route the event is counted under) and {@code attributes} (but {@code skipped}) as its data.
     */
    private static void writeTrace(JsonGenerator json, Span span, String op, Http http, String route, Attributes attributes,
                                   Set<String> skipped) throws IOException {
        json.writeObjectFieldStart("trace");
        json.writeStringField("trace_id", HexFormat.of().formatHex(span.getTraceId().toByteArray()));
        json.writeStringField("span_id", HexFormat.of().formatHex(span.getSpanId().toByteArray()));
        if (span.getParentSpanId().size() == 8) {
            json.writeStringField("parent_span_id", HexFormat.of().formatHex(span.getParentSpanId().toByteArray()));
        }
        writeIfPresent(json, "op", op);
        json.writeObjectFieldStart("data");
        writeIfPresent(json, "method", http.method());
        writeIfPresent(json, "url", http.url());
        writeIfPresent(json, "http.route", route);
        attributes.writeFields(json, union(DATA_FIELDS, skipped));
        json.writeEndObject();
        json.writeEndObject();
    }

    static void writeRuntimeAndOs(JsonGenerator json, Attributes resource) throws IOException {
        String runtime = cut(resource.text("process.runtime.name"));
        if (!runtime.isEmpty()) {
            json.writeObjectFieldStart("runtime");
            json.writeStringField("name", runtime);
            writeIfPresent(json, "version", cut(resource.text("process.runtime.version")));
            json.writeEndObject();
        }
        String os = cut(resource.text("os.name", "os.type"));
        if (!os.isEmpty()) {
            json.writeObjectFieldStart("os");
            json.writeStringField("name", os);
            writeIfPresent(json, "version", cut(resource.text("os.version")));
            json.writeEndObject();
        }
    }

    static void writeFrames(JsonGenerator json, List<StackTraceText.Frame> frames) throws IOException {
        if (frames.isEmpty()) {
            return;
        }
        json.writeObjectFieldStart("stacktrace");
        json.writeArrayFieldStart("frames");
        for (StackTraceText.Frame frame : frames) {
            json.writeStartObject();
            writeIfPresent(json, "function", frame.function());
            writeIfPresent(json, "module", frame.module());
            writeIfPresent(json, "filename", frame.filename());
            if (frame.lineno() != null) {
                json.writeNumberField("lineno", frame.lineno());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /** Epoch nanoseconds (unsigned, as OTLP has them) as epoch seconds, as Sentry events have them; nothing for 0 (unset). */
    static void writeTime(JsonGenerator json, String field, long unixNanos) throws IOException {
        if (unixNanos != 0) {
            json.writeFieldName(field);
            json.writeNumber(new BigDecimal(new BigInteger(Long.toUnsignedString(unixNanos)), 9));
        }
    }

    static void writeIfPresent(JsonGenerator json, String field, String value) throws IOException {
        if (value != null && !value.isEmpty()) {
            json.writeStringField(field, value);
        }
    }

    static String cut(String text) {
        return cut(text, MAX_COPIED_CHARS);
    }

    /** At most {@code max} UTF-16 units, a surrogate pair never split. */
    static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end);
    }

    private static String firstNonEmpty(String first, String second) {
        return first.isEmpty() ? second : first;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        if (b.isEmpty()) {
            return a;
        }
        java.util.HashSet<String> both = new java.util.HashSet<>(a);
        both.addAll(b);
        return both;
    }

    private static boolean isZero(ByteString id) {
        for (int i = 0; i < id.size(); i++) {
            if (id.byteAt(i) != 0) {
                return false;
            }
        }
        return true;
    }
}
