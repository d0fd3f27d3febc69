package io.sluice.processor.topology;

import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/** A name that comes from clients and that the aggregates bound per project and day ({@link CardinalityLimits}). */
public enum LimitedName {
    ROUTE("route"),
    ENVIRONMENT("environment"),
    EXCEPTION_TYPE("exception_type"),
    RELEASE("release");

    private final QualifiedOutcome outcome;

    LimitedName(String qualifier) {
        this.outcome = QualifiedOutcome.of(Outcome.CARDINALITY_LIMITED, qualifier);
    }

    /** What an event counted under {@code <other>} for this name is in the outcomes, {@code cardinality_limited:route}. */
    public QualifiedOutcome outcome() {
        return outcome;
    }
}
