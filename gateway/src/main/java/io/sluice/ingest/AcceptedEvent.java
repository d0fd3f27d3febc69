package io.sluice.ingest;

/** What validation established about an event: its id and its normalized event time. */
public record AcceptedEvent(String eventId, long eventTimeMillis, boolean timeAdjusted) {
}
