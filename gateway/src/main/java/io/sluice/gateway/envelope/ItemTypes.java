package io.sluice.gateway.envelope;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/**
 * The item types Sluice accepts and does not store, counted as {@code unsupported_item:<type>},
 * each item as the things it holds: a container of logs, metrics or spans (its header's
 * {@code item_count}) as each of them, any other item (a browser SDK's standalone INP span) as one.
 */
public final class ItemTypes {
    /** Types of the Sentry protocol, counted by name; any other as {@code other}, so the outcomes stay few. */
    private static final Set<String> KNOWN = Set.of("attachment", "profile", "profile_chunk",
            "replay_event", "replay_recording", "replay_video", "check_in", "span", "log", "otel_log", "statsd",
            "metric_buckets", "trace_metric", "user_report", "feedback", "security", "raw_security", "nel", "unreal_report");

    /**
     * Most things one item counts as: far above an SDK's batch (100 logs, 1,000 metrics), and a
     * bound on what one header line adds to the outcomes.
     */
    public static final long MAX_ITEM_COUNT = 10_000;

    private ItemTypes() {
    }

    /**
     * How many things the item holds: its header's {@code item_count}, when a positive integer (at
     * most {@link #MAX_ITEM_COUNT}), else one.
     */
    public static long count(Envelope.Item item) {
        JsonNode count = item.header().get("item_count");
        if (count == null || !count.isIntegralNumber() || count.bigIntegerValue().signum() <= 0) {
            return 1;
        }
        return count.canConvertToLong() ? Math.min(count.longValue(), MAX_ITEM_COUNT) : MAX_ITEM_COUNT;
    }

    public static QualifiedOutcome unsupported(String type) {
        return QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, KNOWN.contains(type) ? type : "other");
    }
}
