package io.sluice.gateway.validate;

import io.sluice.events.SampleRate;

/**
 * What validation established about an event: its id, its normalized event time, the fields
 * Sluice keeps as read from its JSON ({@code FieldsHeader}'s value; null when there is none to send),
 * and the JSON to publish (as sent, or without its secrets once scrubbed); {@code invalidSampleRateAt}:
 * where a transaction's sample rate that is no probability was read ({@link SampleRate#invalidAt}),
 * null when none was.
 */
public record AcceptedEvent(String eventId, long eventTimeMillis, boolean timeAdjusted, byte[] fields, byte[] json,
                            String invalidSampleRateAt) {
}
