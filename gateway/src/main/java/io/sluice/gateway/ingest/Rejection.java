package io.sluice.gateway.ingest;

import io.sluice.outcomes.Outcome;

/**
 * Why a request is refused: its outcome (the machine-readable code), a message for a person, the
 * JSON path of the field at fault (or null), the limit that was hit (or null) and when to retry.
 * Thrown by every stage of a request's path; the HTTP layer answers it as JSON with
 * {@link #status}. No stack trace: these are answers, not bugs, and some arrive by the thousand.
 */
public final class Rejection extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Outcome outcome;
    private final String field;
    private final String limit;
    private final long retryAfterSeconds;
    /** The X-Sentry-Rate-Limits value of a 429 on the Sentry routes, or null. */
    private final String sentryRateLimits;

    /**
     * @param limit             the limit that was hit, for 429 answers (or null)
     * @param retryAfterSeconds the Retry-After of 429/503 answers
     */
    public Rejection(Outcome outcome, String message, String field, String limit, long retryAfterSeconds) {
        this(outcome, message, field, limit, retryAfterSeconds, null);
    }

    private Rejection(Outcome outcome, String message, String field, String limit, long retryAfterSeconds,
                      String sentryRateLimits) {
        super(message, null, false, false);
        if (outcome == Outcome.ACCEPTED || outcome == Outcome.CLIENT_DISCARD || outcome == Outcome.UNSUPPORTED_ITEM
                || outcome == Outcome.FILTERED || outcome == Outcome.INVALID_SAMPLE_RATE
                || outcome == Outcome.CARDINALITY_LIMITED) {
            throw new IllegalArgumentException("'" + outcome + "' is not a refusal");
        }
        this.outcome = outcome;
        this.field = field;
        this.limit = limit;
        this.retryAfterSeconds = retryAfterSeconds;
        this.sentryRateLimits = sentryRateLimits;
    }

    /** This refusal, answered with {@code X-Sentry-Rate-Limits: <value>} as well. */
    public Rejection withSentryRateLimits(String value) {
        return new Rejection(outcome, getMessage(), field, limit, retryAfterSeconds, value);
    }

    public String sentryRateLimits() {
        return sentryRateLimits;
    }

    public Rejection(Outcome outcome, String message) {
        this(outcome, message, null, null, 1);
    }

    /** A field of the payload that is present but unusable. */
    public static Rejection invalid(String field, String message) {
        return new Rejection(Outcome.INVALID_FIELD, message, field, null, 1);
    }

    /** The HTTP status of a refusal with this outcome; each outcome has one. */
    public static int statusOf(Outcome outcome) {
        return switch (outcome) {
            case NOT_FOUND -> 404;
            case METHOD_NOT_ALLOWED -> 405;
            case BAD_REQUEST, CORRUPT_BODY, INVALID_JSON, INVALID_FIELD, INVALID_ENVELOPE -> 400;
            case UNAUTHORIZED -> 401;
            case KEY_OF_ANOTHER_PROJECT, PROJECT_DISABLED, ORIGIN_NOT_ALLOWED -> 403;
            case REQUEST_TIMEOUT -> 408;
            case BODY_TOO_LARGE -> 413;
            case URI_TOO_LONG -> 414;
            case UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_ENCODING -> 415;
            case QUOTA_EXCEEDED, TOO_MANY_FAILED_ATTEMPTS -> 429;
            case HEADERS_TOO_LARGE -> 431;
            case CLIENT_GONE -> 499;
            case OVERLOADED, SHUTTING_DOWN, UNAVAILABLE, PROJECT_UNAVAILABLE -> 503;
            case ACCEPTED, CLIENT_DISCARD, UNSUPPORTED_ITEM, FILTERED, INVALID_SAMPLE_RATE, CARDINALITY_LIMITED ->
                    throw new IllegalArgumentException("'" + outcome + "' is not a refusal");
        };
    }

    public Outcome outcome() {
        return outcome;
    }

    /** The outcome's wire code, the answer's {@code "error"}. */
    public String code() {
        return outcome.code();
    }

    public int status() {
        return statusOf(outcome);
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
