package io.sluice.gateway.validate;

/** What validation established about an event: its id and its normalized event time. */
public record AcceptedEvent(String eventId, long eventTimeMillis, boolean timeAdjusted) {
}
