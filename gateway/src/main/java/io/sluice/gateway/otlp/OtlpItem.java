package io.sluice.gateway.otlp;

import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.validate.WrittenEvent;

/**
 * An event made of a span: a transaction or an error report, as the JSON the v1 and Sentry
 * endpoints take, with the tree the validator reads of it, built as it was written.
 */
public record OtlpItem(Endpoint endpoint, WrittenEvent event) {
    /** The event's JSON. */
    public byte[] json() {
        return event.json();
    }
}
