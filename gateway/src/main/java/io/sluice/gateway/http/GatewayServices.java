package io.sluice.gateway.http;

import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import io.sluice.gateway.admit.Gate;
import io.sluice.gateway.envelope.EnvelopeParser;
import io.sluice.gateway.otlp.ExportReader;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.publish.EventPublisher;
import io.sluice.gateway.publish.Outcomes;
import io.sluice.gateway.decompress.BodyDecoder;
import io.sluice.gateway.ingest.BodySize;
import io.sluice.gateway.validate.EventValidator;

/**
 * What the pipeline's handlers use, built once where the gateway starts and shared by all
 * connections.
 *
 * @param clock    gives a request's receive time
 * @param draining set when the gateway shuts down: new requests get 503, answers close their connections
 * @param envelopeDecoder decodes Sentry envelopes, bounded by the envelope limit (events keep the v1 bound)
 * @param readers  reads the bodies whose reading would hold an event loop for long ({@link ReadWorkers});
 *                 null: every body is read on its event loop
 * @param otlp     reads OTLP/HTTP trace exports, decompressed, into their spans' events
 * @param otlpDecoder decompresses OTLP exports, bounded by their own limit
 */
public record GatewayServices(Gate gate, BodyDecoder decoder, EventValidator validator,
                              EventPublisher publisher, Outcomes outcomes, GatewayMetrics metrics, Clock clock,
                              AtomicBoolean draining, BodyDecoder envelopeDecoder, EnvelopeParser envelopes,
                              Executor readers, ExportReader otlp, BodyDecoder otlpDecoder) {
    /** Without an OTLP reader (the OTLP door is not used). */
    public GatewayServices(Gate gate, BodyDecoder decoder, EventValidator validator, EventPublisher publisher,
                           Outcomes outcomes, GatewayMetrics metrics, Clock clock, AtomicBoolean draining,
                           BodyDecoder envelopeDecoder, EnvelopeParser envelopes, Executor readers) {
        this(gate, decoder, validator, publisher, outcomes, metrics, clock, draining, envelopeDecoder, envelopes, readers, null, null);
    }

    /** Without read workers: every body is read on its event loop. */
    public GatewayServices(Gate gate, BodyDecoder decoder, EventValidator validator, EventPublisher publisher,
                           Outcomes outcomes, GatewayMetrics metrics, Clock clock, AtomicBoolean draining,
                           BodyDecoder envelopeDecoder, EnvelopeParser envelopes) {
        this(gate, decoder, validator, publisher, outcomes, metrics, clock, draining, envelopeDecoder, envelopes, null, null, null);
    }

    /** The decoder of a route's bodies, bounded by its limit. */
    public BodyDecoder decoder(BodySize size) {
        return switch (size) {
            case EVENT -> decoder;
            case ENVELOPE -> envelopeDecoder;
            case OTLP_EXPORT -> otlpDecoder;
        };
    }
}
