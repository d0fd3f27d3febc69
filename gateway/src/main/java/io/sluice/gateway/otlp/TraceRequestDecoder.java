package io.sluice.gateway.otlp;

import java.io.IOException;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.sluice.gateway.admit.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Reads an OTLP/HTTP trace export, a body already decompressed and within the size limit, in
 * either encoding. What cannot be read is a 400 naming why (a length that runs past the end,
 * invalid UTF-8, nesting deeper than {@link #MAX_DEPTH}, JSON that is not OTLP's); an export of
 * more than {@code maxSpans} spans is a 413, since the exporter must send smaller batches.
 * The decoded request takes a bounded multiple of the body's size: every span costs body bytes.
 */
public final class TraceRequestDecoder {
    /**
     * How deeply messages may nest, in protobuf (protobuf-java's default is 100) and in JSON:
     * OTLP itself nests 6 levels to a span's attribute; the rest is attribute values in values.
     */
    static final int MAX_DEPTH = 64;

    private final int maxSpans;
    private final OtlpJsonReader json;

    public TraceRequestDecoder(int maxSpans) {
        this.maxSpans = maxSpans;
        this.json = new OtlpJsonReader(MAX_DEPTH, maxSpans);
    }

    public int maxSpans() {
        return maxSpans;
    }

    /** @throws Rejection 400 when the body is not an export of this format, 413 when it holds more than {@link #maxSpans} spans */
    public ExportTraceServiceRequest decode(byte[] body, OtlpFormat format) {
        ExportTraceServiceRequest request = format == OtlpFormat.PROTOBUF ? fromProtobuf(body) : json.read(body);
        checkSpanCount(request);
        return request;
    }

    private static ExportTraceServiceRequest fromProtobuf(byte[] body) {
        CodedInputStream in = CodedInputStream.newInstance(body);
        in.setRecursionLimit(MAX_DEPTH);
        try {
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in);
            in.checkLastTagWas(0);
            return request;
        } catch (InvalidProtocolBufferException e) {
            // protobuf-java's own words for this one address the server's programmer (setRecursionLimit)
            String why = e.getMessage() != null && e.getMessage().contains("too many levels of nesting")
                    ? "messages (attribute values in values) nest deeper than " + MAX_DEPTH + " levels" : e.getMessage();
            throw new Rejection(Outcome.BAD_REQUEST, "the body is not an OTLP ExportTraceServiceRequest in protobuf: " + why);
        } catch (IOException e) {
            throw new Rejection(Outcome.BAD_REQUEST, "the body is not an OTLP ExportTraceServiceRequest in protobuf");
        }
    }

    private void checkSpanCount(ExportTraceServiceRequest request) {
        long spans = 0;
        for (ResourceSpans resource : request.getResourceSpansList()) {
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                spans += scope.getSpansCount();
            }
        }
        if (spans > maxSpans) {
            throw tooManySpans(maxSpans);
        }
    }

    static Rejection tooManySpans(int maxSpans) {
        return new Rejection(Outcome.BODY_TOO_LARGE, "an export may hold at most " + maxSpans
                + " spans; send smaller batches (an SDK's batch span processor sends 512 at most by default)");
    }
}
