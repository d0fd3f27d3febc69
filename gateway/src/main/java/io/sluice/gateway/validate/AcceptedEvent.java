package io.sluice.gateway.validate;

/**
 * What validation established about an event: its id, its normalized event time, and the fields
 * Sluice keeps as read from its JSON ({@code FieldsHeader}'s value; null when there is none to send).
 */
public record AcceptedEvent(String eventId, long eventTimeMillis, boolean timeAdjusted, byte[] fields) {
}
