package io.sluice.gateway.ingest;

/**
 * The front door a route comes in by ({@link IngestRoute#door}): the HTTP side builds one door
 * for each, by an exhaustive switch, so a new constant is a compile error until its door exists.
 */
public enum Door {
    V1,
    SENTRY_STORE,
    SENTRY_ENVELOPE,
    OTLP_TRACES,
    OTLP_LOGS,
    OTLP_METRICS
}
