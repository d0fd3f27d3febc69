package io.sluice.gateway.otlp;

import io.sluice.gateway.admit.Endpoint;

/** An event made of a span: a transaction or an error report, as the JSON the v1 and Sentry endpoints take. */
public record OtlpItem(Endpoint endpoint, byte[] json) {
}
