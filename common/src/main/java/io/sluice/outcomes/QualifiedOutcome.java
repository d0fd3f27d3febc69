package io.sluice.outcomes;

import java.util.Locale;

/**
 * An outcome with a qualifier, stored as {@code <code>:<qualifier>}, such as
 * {@code client_discard:ratelimit_backoff} or {@code unsupported_item:replay_event}. The qualifier
 * comes from clients, so it is sanitized to {@code [a-z0-9_]}, at most {@link #MAX_QUALIFIER}
 * characters: what an SDK sends cannot grow the outcome column's cardinality beyond words of that
 * shape, nor inject separators.
 */
public record QualifiedOutcome(Outcome outcome, String qualifier) {
    public static final int MAX_QUALIFIER = 64;

    public QualifiedOutcome {
        qualifier = sanitize(qualifier);
    }

    public static QualifiedOutcome of(Outcome outcome, String qualifier) {
        return new QualifiedOutcome(outcome, qualifier);
    }

    /** Lower-cased, every other character than {@code [a-z0-9_]} as {@code _}, cut to 64; "unknown" when empty. */
    public static String sanitize(String text) {
        if (text == null || text.isEmpty()) {
            return "unknown";
        }
        String lower = text.toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(Math.min(lower.length(), MAX_QUALIFIER));
        for (int i = 0; i < lower.length() && out.length() < MAX_QUALIFIER; i++) {
            char c = lower.charAt(i);
            out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ? c : '_');
        }
        return out.toString();
    }

    /** The stored code, {@code client_discard:ratelimit_backoff}. */
    public String code() {
        return outcome.code() + ':' + qualifier;
    }

    @Override
    public String toString() {
        return code();
    }
}
