package io.sluice.processor.rows;

import java.util.List;

/** A raw session item, parsed: the counts it brings, each counted once under its own id. */
public record SessionItem(String eventId, String project, long receivedAt, List<SessionFact> facts) implements Fact {
    public SessionItem {
        facts = List.copyOf(facts);
    }
}
