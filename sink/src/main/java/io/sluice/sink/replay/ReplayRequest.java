package io.sluice.sink.replay;

import java.time.Instant;
import java.util.Set;

/**
 * What to replay: event times from {@code from} (inclusive) to {@code to} (exclusive), of one
 * project or all (null), which kinds of tables, and whether to write or only count.
 */
public record ReplayRequest(Instant from, Instant to, String project, Set<What> what, boolean dryRun) {
    public ReplayRequest {
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("--from (" + from + ") must be before --to (" + to + ")");
        }
        what = Set.copyOf(what);
    }

    /** The kinds of tables a replay can rebuild. */
    public enum What {
        /** sluice.transactions, from the history topic. */
        HISTORY,
        /** sluice.errors, from the error-history topic. */
        ERRORS,
        /** Every aggregate table ({@link io.sluice.config.Aggregate#ALL}), from its topic. */
        AGGREGATES;

        public static Set<What> parse(String text) {
            return switch (text) {
                case "history" -> Set.of(HISTORY);
                case "errors" -> Set.of(ERRORS);
                case "aggregates" -> Set.of(AGGREGATES);
                case "all" -> Set.of(HISTORY, ERRORS, AGGREGATES);
                default -> throw new IllegalArgumentException("--what is history, errors, aggregates or all, not " + text);
            };
        }
    }
}
