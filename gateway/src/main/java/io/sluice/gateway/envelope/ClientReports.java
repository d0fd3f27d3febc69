package io.sluice.gateway.envelope;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * A Sentry client report ({@code {"discarded_events": [{"reason", "category", "quantity"}]}}):
 * what the SDK dropped itself and why, summed per reason as {@code client_discard:<reason>}. A
 * report that cannot be read is ignored: it is the SDK's bookkeeping, never a reason to refuse.
 */
public final class ClientReports {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A single entry counts at most this much, so a client cannot overflow a counter. */
    private static final long MAX_QUANTITY = 1_000_000;

    private ClientReports() {
    }

    public static Map<QualifiedOutcome, Long> discards(Envelope.Item item) {
        Map<QualifiedOutcome, Long> counts = new LinkedHashMap<>();
        JsonNode report;
        try {
            report = JSON.readTree(item.envelope(), item.offset(), item.length());
        } catch (IOException | RuntimeException unreadable) {
            return counts;
        }
        JsonNode discarded = report == null ? null : report.get("discarded_events");
        if (discarded == null || !discarded.isArray()) {
            return counts;
        }
        for (JsonNode entry : discarded) {
            JsonNode reason = entry.get("reason");
            JsonNode quantity = entry.get("quantity");
            if (reason == null || !reason.isTextual() || quantity == null || !quantity.canConvertToLong()) {
                continue;
            }
            long count = Math.max(0, Math.min(MAX_QUANTITY, quantity.asLong()));
            counts.merge(QualifiedOutcome.of(Outcome.CLIENT_DISCARD, reason.textValue()), count, Long::sum);
        }
        return counts;
    }
}
