package io.sluice.gateway.envelope;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.events.SessionItems;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;

/**
 * Reads the Sentry envelope format (develop.sentry.dev/sdk/envelopes): a header line (a JSON
 * object), then items, each an item header line (a JSON object with {@code type} and an optional
 * {@code length}) and a payload: exactly {@code length} bytes followed by a newline or the end,
 * or, without a length, up to the next newline. A missing final newline and blank lines between
 * items are fine. Everything else is refused with 400 {@code invalid_envelope} naming what is
 * wrong and where; an event, transaction or session payload beyond {@code maxEventBytes}, 413.
 */
public final class EnvelopeParser {
    /**
     * The items whose payload Sluice publishes as one record, each bounded like a v1 body: Kafka
     * refuses a larger record, and that refusal must not reach the producer.
     */
    public static final Set<String> PUBLISHED_TYPES = Set.of("event", "transaction", SessionItems.SESSION, SessionItems.SESSIONS);
    private static final int MAX_HEADER_NESTING = 32;
    /** An item header is a type, a length and a few names: bounded, so a header never becomes a big JSON tree. */
    public static final int MAX_ITEM_HEADER_BYTES = 4 * 1024;
    /** The envelope header: ids, the sdk, the dsn, a trace context. */
    public static final int MAX_ENVELOPE_HEADER_BYTES = 16 * 1024;
    private static final ObjectMapper HEADERS = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_HEADER_NESTING).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final int maxItems;
    private final int maxEventBytes;

    public EnvelopeParser(int maxItems, int maxEventBytes) {
        this.maxItems = maxItems;
        this.maxEventBytes = maxEventBytes;
    }

    public Envelope parse(byte[] bytes) {
        int end = lineEnd(bytes, 0);
        if (end > MAX_ENVELOPE_HEADER_BYTES) {
            throw invalid("the envelope header (its first line) is longer than " + MAX_ENVELOPE_HEADER_BYTES + " bytes");
        }
        JsonNode header = object(bytes, 0, end, "the envelope header (its first line)");
        List<Envelope.Item> items = new ArrayList<>();
        int position = end + 1;
        while (position < bytes.length) {
            if (bytes[position] == '\n' || bytes[position] == '\r') {
                position++;
                continue;
            }
            int number = items.size() + 1;
            if (number > maxItems) {
                throw invalid("the envelope has more than " + maxItems + " items");
            }
            int headerEnd = lineEnd(bytes, position);
            if (headerEnd - position > MAX_ITEM_HEADER_BYTES) {
                throw invalid("the header of item " + number + " is longer than " + MAX_ITEM_HEADER_BYTES + " bytes");
            }
            JsonNode itemHeader = object(bytes, position, headerEnd, "the header of item " + number);
            JsonNode type = itemHeader.get("type");
            if (type == null || !type.isTextual() || type.textValue().isEmpty()) {
                throw invalid("the header of item " + number + " has no 'type'");
            }
            int start = Math.min(headerEnd + 1, bytes.length);
            int payloadEnd;
            JsonNode length = itemHeader.get("length");
            if (length != null && !length.isNull()) {
                // An int, or a huge number would wrap (asLong of 2^64 + 5 is 5).
                if (!length.canConvertToExactIntegral() || !length.canConvertToInt() || length.asInt() < 0) {
                    throw invalid("the 'length' of item " + number + " is not a byte count");
                }
                long declared = length.asLong();
                if (declared > bytes.length - start) {
                    throw invalid("item " + number + " declares a length of " + declared + " bytes; only "
                            + (bytes.length - start) + " follow");
                }
                payloadEnd = start + (int) declared;
                if (payloadEnd < bytes.length && bytes[payloadEnd] != '\n') {
                    throw invalid("item " + number + " is not followed by a newline after its declared length of "
                            + declared + " bytes");
                }
            } else {
                payloadEnd = lineEnd(bytes, start);
            }
            String itemType = type.textValue();
            if (PUBLISHED_TYPES.contains(itemType) && payloadEnd - start > maxEventBytes) {
                throw new Rejection(Outcome.BODY_TOO_LARGE, "item " + number + " (" + itemType + ") is larger than "
                        + maxEventBytes + " bytes");
            }
            items.add(new Envelope.Item(itemType, itemHeader, bytes, start, payloadEnd - start));
            position = payloadEnd + 1;
        }
        return new Envelope(header, items);
    }

    /** The index of the newline ending the line that starts at {@code from}, or the length when none. */
    private static int lineEnd(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return bytes.length;
    }

    private static JsonNode object(byte[] bytes, int from, int to, String what) {
        JsonNode node;
        try {
            node = to > from ? HEADERS.readTree(bytes, from, to - from) : null;
        } catch (IOException e) {
            throw invalid(what + " is not JSON");
        }
        if (node == null || !node.isObject()) {
            throw invalid(what + " is not a JSON object");
        }
        return node;
    }

    private static Rejection invalid(String message) {
        return new Rejection(Outcome.INVALID_ENVELOPE, "not a valid Sentry envelope: " + message);
    }
}
