package io.sluice.gateway.otlp;

import java.util.Locale;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/** The two encodings of OTLP/HTTP: the request's {@code Content-Type}, and the answer's (the same, per the specification). */
public enum OtlpFormat {
    PROTOBUF("application/x-protobuf"),
    JSON("application/json");

    private final String contentType;

    OtlpFormat(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }

    /** The encoding a {@code Content-Type} names (parameters such as a charset ignored), or a 415 {@link Rejection}. */
    public static OtlpFormat of(String contentType) {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        for (OtlpFormat format : values()) {
            if (format.contentType.equals(mediaType)) {
                return format;
            }
        }
        throw new Rejection(Outcome.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/x-protobuf or application/json "
                + "(OTLP/HTTP), got '" + contentType + "'");
    }
}
