package io.sluice.gateway.http;

import java.util.Map;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.ops.GatewayMetrics;
import io.sluice.gateway.publish.Outcomes;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * The one place that records what became of a request's events: the project's outcome counts
 * ({@link Outcomes}) and the matching metrics, so the two cannot drift apart. Every refusal,
 * whichever stage or door it comes from, is recorded through {@link #refused}.
 */
final class OutcomeRecorder {
    private final Outcomes outcomes;
    private final GatewayMetrics metrics;

    OutcomeRecorder(GatewayServices services) {
        this.outcomes = services.outcomes();
        this.metrics = services.metrics();
    }

    /** @param token the project's token, or null when the request named none */
    void refused(String token, Rejection refusal) {
        metrics.rejected(refusal.outcome());
        outcomes.record(token, refusal.outcome());
    }

    /** Events Kafka acknowledged. */
    void accepted(String token, int events) {
        for (int i = 0; i < events; i++) {
            outcomes.record(token, Outcome.ACCEPTED);
        }
    }

    /** Events not published because their connection closed before (see {@link Outcome#CLIENT_GONE}). */
    void gone(String token, int events) {
        for (int i = 0; i < events; i++) {
            metrics.rejected(Outcome.CLIENT_GONE);
            outcomes.record(token, Outcome.CLIENT_GONE);
        }
    }

    /** Events not published because their project or endpoint was over its quota. */
    void overQuota(String token, int events) {
        for (int i = 0; i < events; i++) {
            metrics.rejected(Outcome.QUOTA_EXCEEDED);
            outcomes.record(token, Outcome.QUOTA_EXCEEDED);
        }
    }

    /** What was only counted: client reports' discards, items Sluice does not store. */
    void counted(String token, Map<QualifiedOutcome, Long> counted) {
        counted.forEach((outcome, quantity) -> outcomes.record(token, outcome, quantity));
    }
}
