package io.sluice.processor.rows;

/** What sessions are grouped by, besides the hour they started. */
public record SessionKey(String project, String environment, String release) {
    public static SessionKey of(SessionFact fact) {
        return new SessionKey(fact.project(), fact.environment(), fact.release());
    }
}
