package io.sluice.processor.rows;

import io.sluice.events.SessionItems;

/** Sessions of one key and hour, by what they were counted as ({@link SessionItems}). Immutable. */
public record SessionCounts(long started, long errored, long crashed, long abnormal, long exited) {
    public static final SessionCounts NONE = new SessionCounts(0, 0, 0, 0, 0);

    /** These counts and one fact's. */
    public SessionCounts add(SessionFact fact) {
        long n = fact.count();
        return switch (fact.kind()) {
            case STARTED -> new SessionCounts(started + n, errored, crashed, abnormal, exited);
            case ERRORED -> new SessionCounts(started, errored + n, crashed, abnormal, exited);
            case CRASHED -> new SessionCounts(started, errored, crashed + n, abnormal, exited);
            case ABNORMAL -> new SessionCounts(started, errored, crashed, abnormal + n, exited);
            case EXITED -> new SessionCounts(started, errored, crashed, abnormal, exited + n);
        };
    }

    /** These counts and {@code other}'s: partial sums of several tasks added into one hour's. */
    public SessionCounts plus(SessionCounts other) {
        return new SessionCounts(started + other.started, errored + other.errored, crashed + other.crashed,
                abnormal + other.abnormal, exited + other.exited);
    }

    /** All counts together: grows with every addition, so it orders a row's versions. */
    long total() {
        return started + errored + crashed + abnormal + exited;
    }
}
