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
        release = Columns.fit(release, Columns.NAME_OR_VERSION);
    }

    public static SessionFact of(String project, long receivedAt, SessionItems.Count count) {
        return new SessionFact(count.id(), project, receivedAt, count.startedMillis(), count.environment(), count.release(),
                count.kind(), count.count());
    }
}
