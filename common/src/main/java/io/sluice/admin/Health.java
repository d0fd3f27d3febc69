package io.sluice.admin;

import java.util.Map;

/**
 * What {@code /healthz} says: whether the process still serves (503 {@code "failed"} when not,
 * so an orchestrator restarts it), and the server's own facts shown beside the status, such as
 * the processor's Streams state.
 */
public record Health(boolean alive, Map<String, String> details) {
    /** A process that serves and has nothing to add. */
    public static final Health OK = new Health(true, Map.of());

    /** @param details in the order they are shown */
    public Health {
        details = Details.copyOf(details);
    }
}
