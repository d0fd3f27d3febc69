package io.sluice.gateway.envelope;

import java.util.Set;

import io.sluice.outcomes.Outcome;
import io.sluice.outcomes.QualifiedOutcome;

/** The item types Sluice accepts and does not store, counted as {@code unsupported_item:<type>}. */
public final class ItemTypes {
    /** Types of the Sentry protocol, counted by name; any other as {@code other}, so the outcomes stay few. */
    private static final Set<String> KNOWN = Set.of("session", "sessions", "attachment", "profile", "profile_chunk",
            "replay_event", "replay_recording", "replay_video", "check_in", "span", "log", "otel_log", "statsd",
            "metric_buckets", "user_report", "feedback", "security", "raw_security", "nel", "unreal_report");

    private ItemTypes() {
    }

    public static QualifiedOutcome unsupported(String type) {
        return QualifiedOutcome.of(Outcome.UNSUPPORTED_ITEM, KNOWN.contains(type) ? type : "other");
    }
}
