package io.sluice.gateway.otlp;

import io.sluice.gateway.ingest.Endpoint;

/** An event made of a span: a transaction or an error report, as the JSON the v1 and Sentry endpoints take. */
public record OtlpItem(Endpoint endpoint, byte[] json) {
}
