package io.sluice.gateway.ingest;

/** Which configured body limit a route's requests are held to, as sent and decompressed. */
public enum BodySize {
    /** One event: {@code SLUICE_GATEWAY_MAX_BODY_BYTES} (the v1 endpoints, Sentry's store). */
    EVENT,
    /** A Sentry envelope: {@code SLUICE_GATEWAY_MAX_ENVELOPE_BYTES}. */
    ENVELOPE,
    /** An OTLP/HTTP export: {@code SLUICE_GATEWAY_MAX_OTLP_BYTES}. */
    OTLP_EXPORT
}
