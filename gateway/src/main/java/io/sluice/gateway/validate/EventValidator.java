package io.sluice.gateway.validate;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.events.ErrorFields;
import io.sluice.events.EventTime;
import io.sluice.events.InvalidFieldException;
import io.sluice.events.IsoTimestamps;
import io.sluice.events.RouteRules;
import io.sluice.events.SentryFields;
import io.sluice.events.SessionItems;
import io.sluice.events.TransactionFields;
import io.sluice.gateway.ingest.Endpoint;
import io.sluice.gateway.ingest.Rejection;
import io.sluice.gateway.scrub.ScrubCounter;
import io.sluice.gateway.scrub.Scrubber;
import io.sluice.outcomes.Outcome;
import io.sluice.projects.DataScrubbing;

/**
 * The one place that reads the JSON and decides whether an event is acceptable. Unknown fields
 * are kept (the bytes are published unchanged unless secrets were scrubbed from them); only what Sluice relies on is checked:
 * the event id, the event time, and a transaction's name and status. An error report is any JSON
 * object, as Sentry takes it (a Go SDK may send just {@code "exception": []}): what it lacks is
 * stored empty, its message as {@link SentryFields#NO_MESSAGE}.
 */
public final class EventValidator {
    private static final Pattern EPOCH_SECONDS = Pattern.compile("\\d{1,12}(\\.\\d{1,9})?");
    /**
     * Bytes of JSON per token that the largest event may have at least (a Sentry event has 6 to
     * 20): a JSON tree costs about 50 bytes of heap per token (an empty object {@code {}} is two
     * tokens in three bytes, some 30 bytes of heap per byte), so a tree of the largest event stays
     * within about 16 times its size. Denser JSON of that size is refused.
     */
    static final int MIN_BYTES_PER_TOKEN = 4;

    /** What an aggregate's derived id is of ({@link EventId#derived}). */
    private static final byte SESSIONS_KIND = 's';

    private final Duration horizon;
    private final ObjectMapper mapper;
    private final long maxTokens;
    private final ScrubCounter scrubbed;

    /** For events of at most 1 MiB (the default limit). */
    public EventValidator(Duration horizon) {
        this(horizon, 1024 * 1024);
    }

    /** @param maxJsonBytes the largest event (decompressed): it sets the most JSON tokens an event may have */
    public EventValidator(Duration horizon, int maxJsonBytes) {
        this(horizon, maxJsonBytes, ScrubCounter.NONE);
    }

    /** @param scrubbed told what scrubbing removed from each event, as it is removed */
    public EventValidator(Duration horizon, int maxJsonBytes, ScrubCounter scrubbed) {
        this.horizon = horizon;
        this.scrubbed = scrubbed;
        this.maxTokens = Math.max(1, maxJsonBytes / MIN_BYTES_PER_TOKEN);
        this.mapper = new ObjectMapper(JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(SentryFields.MAX_NESTING_DEPTH)
                        .maxTokenCount(maxTokens).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build());
    }

    /** An event of a project that scrubs by default. */
    public AcceptedEvent validate(Endpoint endpoint, byte[] json, long receivedAtMillis) {
        return validate(endpoint, json, receivedAtMillis, RouteRules.NONE, DataScrubbing.DEFAULT);
    }

    /** @param routeRules the project's, applied to the event's route before the built-in normalization */
    public AcceptedEvent validate(Endpoint endpoint, byte[] json, long receivedAtMillis, RouteRules routeRules) {
        return validate(endpoint, json, receivedAtMillis, routeRules, DataScrubbing.DEFAULT);
    }

    public AcceptedEvent validate(Endpoint endpoint, byte[] json, long receivedAtMillis, DataScrubbing scrubbing) {
        return validate(endpoint, json, receivedAtMillis, RouteRules.NONE, scrubbing);
    }

    /**
     * Scrubs the event's secrets first ({@link Scrubber}), so that its fields, its id and the bytes
     * published are all read from the scrubbed event; the route applies the project's rules first.
     */
    public AcceptedEvent validate(Endpoint endpoint, byte[] json, long receivedAtMillis, RouteRules routeRules,
                                  DataScrubbing scrubbing) {
        return validate(endpoint, json, parse(json), receivedAtMillis, routeRules, scrubbing);
    }

    /** @param event {@code json} as {@link #parse} read it (scrubbing changes it) */
    public AcceptedEvent validate(Endpoint endpoint, byte[] json, JsonNode event, long receivedAtMillis, RouteRules routeRules,
                                  DataScrubbing scrubbing) {
        json = Scrubber.scrub(json, (ObjectNode) event, scrubbing, scrubbed);
        if (endpoint == Endpoint.SESSION) {
            return session(json, event, receivedAtMillis);
        }
        TransactionFields transaction = endpoint == Endpoint.TRANSACTION ? transactionFields(event, routeRules) : null;
        byte[] fields = transaction != null ? transaction.toHeader(json.length) : errorFields(event, json.length, routeRules);
        String invalidSampleRateAt = transaction == null ? null : transaction.sampleRate().invalidAt();
        String eventId = eventId(event.get("event_id"));
        Long clientTime = eventTime(event);
        long tooOld = receivedAtMillis - horizon.toMillis();
        long tooNew = receivedAtMillis + EventTime.MAX_FUTURE.toMillis();
        if (clientTime == null || clientTime < tooOld || clientTime > tooNew) {
            return new AcceptedEvent(eventId, receivedAtMillis, true, fields, json, invalidSampleRateAt);
        }
        return new AcceptedEvent(eventId, clientTime, false, fields, json, invalidSampleRateAt);
    }

    /**
     * A session item, whose counts the processor reads the same way ({@link SessionItems}). Its id:
     * a session update's is its session's (so every update of a session lands in one partition,
     * where its counts are deduplicated), an aggregate's is derived from its bytes (a retry sends
     * the same). Refused when a session started beyond the horizon, whose later updates the
     * processor could no longer tell from its first (it remembers ids for the horizon), or in the
     * future beyond the clock drift events may have.
     */
    private AcceptedEvent session(byte[] json, JsonNode item, long receivedAtMillis) {
        boolean aggregate = item.has("aggregates");
        String itemId;
        if (aggregate) {
            itemId = EventId.derived(SESSIONS_KIND, json).hex();
        } else {
            EventId sid = EventId.parse(SessionItems.sessionId(item));
            if (sid == null) {
                JsonNode sent = item.get("sid");
                throw Rejection.invalid("sid", "a session update's 'sid' must be a UUID, got "
                        + (sent == null ? "none" : SentryFields.abbreviate(sent)));
            }
            itemId = sid.hex();
        }
        List<SessionItems.Count> counts;
        try {
            counts = SessionItems.counts(aggregate ? SessionItems.SESSIONS : SessionItems.SESSION, item, itemId);
        } catch (InvalidFieldException e) {
            throw Rejection.invalid(e.field(), e.getMessage());
        }
        for (SessionItems.Count count : counts) {
            if (count.startedMillis() > receivedAtMillis + EventTime.MAX_FUTURE.toMillis()) {
                throw Rejection.invalid("started", "a session's 'started' is more than " + EventTime.MAX_FUTURE.toSeconds()
                        + " s in the future");
            }
            if (count.startedMillis() < receivedAtMillis - horizon.toMillis()) {
                throw Rejection.invalid("started", "a session's 'started' is older than the event-time horizon ("
                        + horizon.toHours() + " h), beyond which its updates can no longer be counted once");
            }
        }
        return new AcceptedEvent(itemId, SessionItems.startedMillis(counts, receivedAtMillis), false, null, json, null);
    }

    /**
     * The event's tree as {@link #parse(byte[])} would read it from its bytes: the tree written with
     * them, unless it comes within half of a limit of the parser's (or has a name the parser
     * refuses): then the bytes are parsed after all, so that what the parser refuses is refused in
     * its words.
     */
    public JsonNode parse(WrittenEvent event) {
        StreamReadConstraints limits = mapper.getFactory().streamReadConstraints();
        boolean farFromLimits = event.tokens() <= maxTokens / 2 && event.depth() <= limits.getMaxNestingDepth() / 2
                && event.longestText() <= limits.getMaxStringLength() / 2 && event.longestNameBytes() <= limits.getMaxNameLength() / 2;
        return farFromLimits && !event.nameTheParserRefuses() ? event.tree() : parse(event.json());
    }

    /** The event's JSON as a tree, within the limits; refused ({@link Rejection}) unless it is one JSON object. */
    public JsonNode parse(byte[] json) {
        JsonNode event;
        try {
            event = mapper.readTree(json);
        } catch (StreamConstraintsException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("Token count")) {
                throw new Rejection(Outcome.INVALID_JSON, "the body has more than " + maxTokens + " JSON tokens (values, names, "
                        + "brackets): an event may have one per " + MIN_BYTES_PER_TOKEN + " bytes of the largest event");
            }
            throw new Rejection(Outcome.INVALID_JSON, "the body is not valid JSON: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new Rejection(Outcome.INVALID_JSON, "the body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Rejection(Outcome.INVALID_JSON, "the body cannot be read as JSON");
        }
        if (event == null || !event.isObject()) {
            throw new Rejection(Outcome.INVALID_JSON, "the body must be a JSON object");
        }
        return event;
    }

    /** Checks a transaction's name and status, and reads the fields the processor keeps (read here once, for both). */
    private static TransactionFields transactionFields(JsonNode event, RouteRules routeRules) {
        JsonNode name = event.get("transaction");
        if (name == null || !name.isTextual() || name.textValue().isBlank()) {
            throw Rejection.invalid("transaction",
                    "'transaction' must be a non-empty string naming the request, such as \"GET /users/42\"");
        }
        try {
            return TransactionFields.of(event, routeRules);
        } catch (InvalidFieldException e) {
            throw Rejection.invalid(e.field(), e.getMessage());
        }
    }

    /**
     * An error report's fields for the processor; none when they cannot be read, which no report
     * the processor can store causes: the processor then reads the JSON and decides, as it always did.
     */
    private static byte[] errorFields(JsonNode event, int jsonBytes, RouteRules routeRules) {
        try {
            return ErrorFields.of(event, routeRules).toHeader(jsonBytes);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private static String eventId(JsonNode id) {
        if (SentryFields.isAbsent(id)) {
            return EventId.random().hex();
        }
        EventId parsed = EventId.parse(id.isTextual() ? id.textValue() : null);
        if (parsed == null) {
            throw Rejection.invalid("event_id", "'event_id' must be 32 hex digits or a UUID, got " + SentryFields.abbreviate(id));
        }
        return parsed.hex();
    }

    /** Event time in epoch ms from {@code timestamp}, else {@code sent_at}; null when neither is present. */
    private static Long eventTime(JsonNode event) {
        for (String field : new String[] {"timestamp", "sent_at"}) {
            JsonNode value = event.get(field);
            if (!SentryFields.isAbsent(value)) {
                return parseTime(field, value);
            }
        }
        return null;
    }

    static long parseTime(String field, JsonNode value) {
        if (value.isNumber()) {
            if (value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue())) {
                throw Rejection.invalid(field, "'" + field + "' is out of range: " + SentryFields.abbreviate(value));
            }
            return epochSecondsToMillis(field, value.decimalValue());
        }
        if (value.isTextual()) {
            String text = value.textValue().strip();
            if (EPOCH_SECONDS.matcher(text).matches()) {
                return epochSecondsToMillis(field, new java.math.BigDecimal(text));
            }
            long common = IsoTimestamps.parseMillis(text);
            if (IsoTimestamps.isOfThisShape(common)) {
                return common;
            }
            Long general;
            try {
                general = IsoTimestamps.parseMillisWithJavaTime(text);
            } catch (ArithmeticException | java.time.DateTimeException beyondEpochMillis) {
                // Like an epoch number too large to hold: refused, not re-timed.
                throw Rejection.invalid(field, "'" + field + "' is out of range: " + SentryFields.abbreviate(value));
            }
            if (general != null) {
                return general;
            }
        }
        throw Rejection.invalid(field, "'" + field + "' must be an ISO 8601 time or epoch seconds, got " + SentryFields.abbreviate(value));
    }

    private static long epochSecondsToMillis(String field, java.math.BigDecimal seconds) {
        if (seconds.signum() < 0 || seconds.compareTo(java.math.BigDecimal.valueOf(Instant.MAX.getEpochSecond() / 1000)) > 0) {
            throw Rejection.invalid(field, "'" + field + "' is out of range: " + seconds.toPlainString());
        }
        return seconds.movePointRight(3).longValue();
    }
}
