package io.sluice.gateway.envelope;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** A parsed Sentry envelope: its header (event_id, dsn, sent_at, sdk…) and its items, in order. */
public record Envelope(JsonNode header, List<Item> items) {
    /** The header's text field, or null when absent or not text. */
    public String headerText(String field) {
        JsonNode value = header.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    /**
     * One item: its type, its header, and where its payload lies in the envelope's bytes (not
     * copied: attachments and replays are read past, never held twice).
     */
    public record Item(String type, JsonNode header, byte[] envelope, int offset, int length) {
        /** A copy of the payload. */
        public byte[] payload() {
            return java.util.Arrays.copyOfRange(envelope, offset, offset + length);
        }
    }
}
