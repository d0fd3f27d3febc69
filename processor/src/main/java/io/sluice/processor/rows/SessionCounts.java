package io.sluice.processor.rows;

import io.sluice.events.SessionItems;

/**
 * Sessions of one key and hour, by what they were counted as ({@link SessionItems}). Immutable.
 * Clients give the counts of aggregates, so sums saturate rather than wrap negative.
 */
public record SessionCounts(long started, long errored, long crashed, long abnormal, long exited) {
    public static final SessionCounts NONE = new SessionCounts(0, 0, 0, 0, 0);

    /** These counts and one fact's. */
    public SessionCounts add(SessionFact fact) {
        long n = fact.count();
        return switch (fact.kind()) {
            case STARTED -> new SessionCounts(Saturating.sum(started, n), errored, crashed, abnormal, exited);
            case ERRORED -> new SessionCounts(started, Saturating.sum(errored, n), crashed, abnormal, exited);
            case CRASHED -> new SessionCounts(started, errored, Saturating.sum(crashed, n), abnormal, exited);
            case ABNORMAL -> new SessionCounts(started, errored, crashed, Saturating.sum(abnormal, n), exited);
            case EXITED -> new SessionCounts(started, errored, crashed, abnormal, Saturating.sum(exited, n));
        };
    }

    /** These counts and {@code other}'s: partial sums of several tasks added into one hour's. */
    public SessionCounts plus(SessionCounts other) {
        return new SessionCounts(Saturating.sum(started, other.started), Saturating.sum(errored, other.errored),
                Saturating.sum(crashed, other.crashed), Saturating.sum(abnormal, other.abnormal), Saturating.sum(exited, other.exited));
    }

    /** All counts together: grows with every addition, so it orders a row's versions. */
    long total() {
        return Saturating.sum(Saturating.sum(Saturating.sum(started, errored), Saturating.sum(crashed, abnormal)), exited);
    }
}
