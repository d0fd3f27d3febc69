package io.sluice.gateway.envelope;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.sluice.gateway.ingest.Rejection;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * A Sentry client report ({@code {"discarded_events": [{"reason", "category", "quantity"}]}}):
 * what the SDK dropped itself and why, summed per reason as {@code client_discard:<reason>}. The
 * reasons Sentry documents are counted by name, any other as {@code other}, so what a client sends
 * cannot grow the outcomes. Read with a streaming parser (no tree: a small gzip body could
 * otherwise become millions of nodes), and a report larger than {@link #MAX_REPORT_BYTES} is
 * refused; a report that cannot be read is otherwise ignored: it is the SDK's bookkeeping.
 * What a client says it dropped cannot be checked, so one envelope (one quota token) counts at
 * most {@link #MAX_DISCARDS} discards over all its reports, and a report at most its first
 * {@link #MAX_ENTRIES} entries: before, 1,000 reports of 64 KiB each could add about 10^12.
 */
public final class ClientReports {
    /** Far above what an SDK sends (a few entries per category and reason). */
    public static final int MAX_REPORT_BYTES = 64 * 1024;
    /** The discard reasons of develop.sentry.dev/sdk/telemetry/client-reports. */
    static final Set<String> REASONS = Set.of("queue_overflow", "cache_overflow", "buffer_overflow", "ratelimit_backoff",
            "network_error", "sample_rate", "before_send", "event_processor", "send_error", "internal_sdk_error",
            "insufficient_data", "backpressure");
    private static final JsonFactory JSON = new JsonFactory();
    /**
     * Most discards one envelope counts, over all its reports and entries: room for an SDK that
     * samples away 30,000 events a second, reporting every 30 s.
     */
    static final long MAX_DISCARDS = 1_000_000;
    /** Most entries read of one report: an SDK sends one per category and reason (about 150 at most). */
    static final int MAX_ENTRIES = 256;

    private ClientReports() {
    }

    /**
     * Adds the discards of this report to those its envelope counted so far ({@code counted}, which
     * may hold other outcomes too), keeping the envelope's client discards at most {@link #MAX_DISCARDS}.
     */
    public static void count(Envelope.Item item, Map<QualifiedOutcome, Long> counted) {
        long room = MAX_DISCARDS - counted.entrySet().stream()
                .filter(entry -> entry.getKey().outcome() == Outcome.CLIENT_DISCARD).mapToLong(Map.Entry::getValue).sum();
        for (Map.Entry<QualifiedOutcome, Long> discard : discards(item).entrySet()) {
            long taken = Math.min(room, discard.getValue());
            if (taken > 0) {
                counted.merge(discard.getKey(), taken, Long::sum);
                room -= taken;
            }
        }
    }

    /** The discards of one report, per outcome: at most {@link #MAX_DISCARDS} in all, from its first {@link #MAX_ENTRIES} entries. */
    public static Map<QualifiedOutcome, Long> discards(Envelope.Item item) {
        if (item.length() > MAX_REPORT_BYTES) {
            throw new Rejection(Outcome.INVALID_ENVELOPE, "not a valid Sentry envelope: a client report may have at most "
                    + MAX_REPORT_BYTES + " bytes");
        }
        Map<QualifiedOutcome, Long> counts = new LinkedHashMap<>();
        try (JsonParser parser = JSON.createParser(item.envelope(), item.offset(), item.length())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return counts;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                if ("discarded_events".equals(name) && parser.nextToken() == JsonToken.START_ARRAY) {
                    int entries = 0;
                    long room = MAX_DISCARDS;
                    while (entries < MAX_ENTRIES && room > 0 && parser.nextToken() == JsonToken.START_OBJECT) {
                        room -= entry(parser, counts, room);
                        entries++;
                    }
                    break; // the rest of the report is not read
                } else {
                    parser.nextToken();
                    parser.skipChildren();
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // what was read so far counts; the rest is ignored
        }
        return counts;
    }

    /**
     * One {@code {"reason", "category", "quantity"}}, the parser on its START_OBJECT; leaves it on
     * its END_OBJECT. Counts at most {@code room}; returns how many it counted.
     */
    private static long entry(JsonParser parser, Map<QualifiedOutcome, Long> counts, long room) throws IOException {
        String reason = null;
        long quantity = -1;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if ("reason".equals(name) && value == JsonToken.VALUE_STRING) {
                reason = parser.getText();
            } else if ("quantity".equals(name) && value == JsonToken.VALUE_NUMBER_INT) {
                quantity = parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? MAX_DISCARDS : parser.getLongValue();
            } else {
                parser.skipChildren();
            }
        }
        if (reason == null || quantity <= 0) {
            return 0;
        }
        long counted = Math.min(room, quantity);
        counts.merge(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, REASONS.contains(reason) ? reason : "other"), counted, Long::sum);
        return counted;
    }
}
