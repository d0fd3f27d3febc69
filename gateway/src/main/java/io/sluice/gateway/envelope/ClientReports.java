package io.sluice.gateway.envelope;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.sluice.gateway.admit.Rejection;
import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * A Sentry client report ({@code {"discarded_events": [{"reason", "category", "quantity"}]}}):
 * what the SDK dropped itself and why, summed per reason as {@code client_discard:<reason>}. The
 * reasons Sentry documents are counted by name, any other as {@code other}, so what a client sends
 * cannot grow the outcomes. Read with a streaming parser (no tree: a small gzip body could
 * otherwise become millions of nodes), and a report larger than {@link #MAX_REPORT_BYTES} is
 * refused; a report that cannot be read is otherwise ignored: it is the SDK's bookkeeping.
 */
public final class ClientReports {
    /** Far above what an SDK sends (a few entries per category and reason). */
    public static final int MAX_REPORT_BYTES = 64 * 1024;
    /** The discard reasons of develop.sentry.dev/sdk/telemetry/client-reports. */
    static final Set<String> REASONS = Set.of("queue_overflow", "cache_overflow", "buffer_overflow", "ratelimit_backoff",
            "network_error", "sample_rate", "before_send", "event_processor", "send_error", "internal_sdk_error",
            "insufficient_data", "backpressure");
    private static final JsonFactory JSON = new JsonFactory();
    /** A single entry counts at most this much, so a client cannot overflow a counter. */
    private static final long MAX_QUANTITY = 1_000_000;

    private ClientReports() {
    }

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
                    while (parser.nextToken() == JsonToken.START_OBJECT) {
                        entry(parser, counts);
                    }
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

    /** One {@code {"reason", "category", "quantity"}}, the parser on its START_OBJECT; leaves it on its END_OBJECT. */
    private static void entry(JsonParser parser, Map<QualifiedOutcome, Long> counts) throws IOException {
        String reason = null;
        long quantity = -1;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if ("reason".equals(name) && value == JsonToken.VALUE_STRING) {
                reason = parser.getText();
            } else if ("quantity".equals(name) && value == JsonToken.VALUE_NUMBER_INT) {
                quantity = parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? MAX_QUANTITY : parser.getLongValue();
            } else {
                parser.skipChildren();
            }
        }
        if (reason != null && quantity >= 0) {
            counts.merge(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, REASONS.contains(reason) ? reason : "other"),
                    Math.min(MAX_QUANTITY, quantity), Long::sum);
        }
    }
}
