package io.sluice.processor.parse;

import org.apache.kafka.common.header.Headers;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.events.InvalidFieldException;
import io.sluice.events.SessionItems;
import io.sluice.processor.rows.SessionFact;
import io.sluice.processor.rows.SessionItem;

/** Turns a raw session item into its counts, read as the gateway read them ({@link SessionItems}). */
public final class SessionParser implements RawParser<SessionItem> {
    @Override
    public SessionItem parse(byte[] json, Headers headers, long recordTimestamp, int partition, long offset) {
        RawRecord raw = RawRecord.of(headers, recordTimestamp);
        JsonNode item = RawRecord.readObject(json);
        String type = item.has("aggregates") ? SessionItems.SESSIONS : SessionItems.SESSION;
        try {
            return new SessionItem(raw.eventId(), raw.project(), raw.receivedAt(), SessionItems.counts(type, item, raw.eventId()).stream()
                    .map(count -> SessionFact.of(raw.project(), raw.receivedAt(), count)).toList());
        } catch (InvalidFieldException invalid) {
            throw new UnprocessableRecordException(invalid.field() + ": " + invalid.getMessage());
        }
    }
}
