package io.sluice.outcomes;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What happened to a request at the gateway: accepted, or why it was refused; and what the
 * processor did to an accepted one's names ({@link #CARDINALITY_LIMITED}). The code is what
 * the outcomes topic and {@code outcomes_1m.outcome} hold, and what an error answer's
 * {@code "error"} says; codes are never renamed, since stored rows keep them.
 */
public enum Outcome {
    /** Published, and acknowledged by Kafka. */
    ACCEPTED("accepted"),

    // Who may send: credentials, limits per project and per client.
    UNAUTHORIZED("unauthorized"),
    KEY_OF_ANOTHER_PROJECT("key_of_another_project"),
    PROJECT_DISABLED("project_disabled"),
    QUOTA_EXCEEDED("quota_exceeded"),
    TOO_MANY_FAILED_ATTEMPTS("too_many_failed_attempts"),

    // What was sent: the request and its body.
    NOT_FOUND("not_found"),
    METHOD_NOT_ALLOWED("method_not_allowed"),
    BAD_REQUEST("bad_request"),
    URI_TOO_LONG("uri_too_long"),
    HEADERS_TOO_LARGE("headers_too_large"),
    BODY_TOO_LARGE("body_too_large"),
    REQUEST_TIMEOUT("request_timeout"),
    UNSUPPORTED_MEDIA_TYPE("unsupported_media_type"),
    UNSUPPORTED_ENCODING("unsupported_encoding"),
    CORRUPT_BODY("corrupt_body"),
    INVALID_JSON("invalid_json"),
    INVALID_FIELD("invalid_field"),
    /** A Sentry envelope that does not follow the envelope format (headers, lengths, item count). */
    INVALID_ENVELOPE("invalid_envelope"),
    /** A browser origin the project's DSN key does not allow. */
    ORIGIN_NOT_ALLOWED("origin_not_allowed"),

    // The gateway's own state: the client should retry.
    OVERLOADED("overloaded"),
    SHUTTING_DOWN("shutting_down"),
    /** Kafka did not acknowledge in time: the event may or may not be stored. */
    UNAVAILABLE("unavailable"),
    /**
     * The project's latest registry record could not be read (it may have revoked a key or
     * disabled the project): its events are refused until an operator writes a readable one.
     */
    PROJECT_UNAVAILABLE("project_unavailable"),
    /**
     * The client closed its connection before its request was read or its events published: they
     * were dropped unpublished (a client that timed out and retries is not counted twice). Never
     * answered (there is no one to answer); its status is nginx's "client closed request".
     */
    CLIENT_GONE("client_gone"),

    // Counted, never answered: always qualified (see QualifiedOutcome), as client_discard:<reason>, filtered:<filter>.
    /** Events an SDK reports it dropped itself (a Sentry client report), per reason. */
    CLIENT_DISCARD("client_discard"),
    /** A Sentry envelope item Sluice accepts and does not store, per item type. */
    UNSUPPORTED_ITEM("unsupported_item"),
    /**
     * An event one of its project's inbound filters dropped (a health check, a browser extension's
     * error, …), per filter: answered as accepted, never stored, and it took no quota (Relay's
     * {@code Outcome::Filtered}).
     */
    FILTERED("filtered"),
    /**
     * An accepted transaction whose sample rate was not a number in (0, 1]: counted as one request
     * in the estimates (as if not sampled), per where the rate was read ({@code sample_rate} or
     * {@code trace_data}). Counted beside {@code accepted}, not instead of it.
     */
    INVALID_SAMPLE_RATE("invalid_sample_rate"),

    // Counted by the processor, never answered: always qualified by the name, as cardinality_limited:<name>.
    /**
     * An accepted event counted under {@code <other>} in the aggregates because its project had
     * brought its limit of routes, environments or exception types that day (Relay's
     * {@code Outcome::CardinalityLimited}; here the event is still counted, only not by that name).
     * Counted beside the gateway's {@code accepted}, not instead of it.
     */
    CARDINALITY_LIMITED("cardinality_limited");

    private final String code;

    Outcome(String code) {
        this.code = code;
    }

    /** The wire code, such as {@code quota_exceeded}. */
    @JsonValue
    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code;
    }
}
