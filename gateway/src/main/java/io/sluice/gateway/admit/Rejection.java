package io.sluice.gateway.admit;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.gateway.http.IngestHandler;

/**
 * Why a request is refused: the HTTP status, a machine-readable code, a message for a person,
 * and the JSON path of the field at fault (or null). Thrown by the stages of the ingest path and
 * turned into one JSON error answer by {@link IngestHandler}. No stack trace: these are answers,
 * not bugs, and some arrive by the thousand.
 */
public final class Rejection extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient HttpResponseStatus status;
    private final String code;
    private final String field;
    private final String limit;
    private final long retryAfterSeconds;

    /**
     * @param limit             the limit that was hit, for 429 answers (or null)
     * @param retryAfterSeconds the Retry-After of 429/503 answers
     */
    public Rejection(HttpResponseStatus status, String code, String message, String field, String limit,
                     long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.field = field;
        this.limit = limit;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public Rejection(HttpResponseStatus status, String code, String message, String field) {
        this(status, code, message, field, null, 1);
    }

    public Rejection(HttpResponseStatus status, String code, String message) {
        this(status, code, message, null);
    }

    public static Rejection invalid(String field, String message) {
        return new Rejection(HttpResponseStatus.BAD_REQUEST, "invalid_field", message, field);
    }

    public HttpResponseStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String field() {
        return field;
    }

    public String limit() {
        return limit;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
