package io.sluice.processor.rows;

import io.sluice.events.SessionItems;

/**
 * One count of a session item ({@link SessionItems.Count}) as the processor counts it: once per
 * (project, {@code eventId}), the count's own id, in the hour its sessions started.
 */
public record SessionFact(String eventId, String project, long receivedAt, long startedMillis, String environment, String release,
                          SessionItems.Kind kind, long count) implements Fact {
    public SessionFact {
        environment = Columns.fit(environment, Columns.ENVIRONMENT);
        release = Columns.fit(release, Columns.RELEASE);
    }

    /** This count under another environment ({@code <other>} beyond a project's limit). */
    public SessionFact withEnvironment(String otherEnvironment) {
        return new SessionFact(eventId, project, receivedAt, startedMillis, otherEnvironment, release, kind, count);
    }

    /** This count under another release ({@code <other>} beyond a project's limit). */
    public SessionFact withRelease(String otherRelease) {
        return new SessionFact(eventId, project, receivedAt, startedMillis, environment, otherRelease, kind, count);
    }

    public static SessionFact of(String project, long receivedAt, SessionItems.Count count) {
        return new SessionFact(count.id(), project, receivedAt, count.startedMillis(), count.environment(), count.release(),
                count.kind(), count.count());
    }
}
