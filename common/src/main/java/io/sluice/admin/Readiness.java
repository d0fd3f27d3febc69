package io.sluice.admin;

import java.util.List;
import java.util.Map;

/**
 * What {@code /readyz} says: ready for traffic when nothing keeps it from it ({@code notReady}
 * empty), else 503 listing every reason; {@code degraded}, what fails for some requests only,
 * is listed by a ready answer and takes no server out of rotation; {@code details}, the server's
 * own facts shown beside the status.
 */
public record Readiness(List<String> notReady, List<String> degraded, Map<String, String> details) {
    /** @param details in the order they are shown */
    public Readiness {
        notReady = List.copyOf(notReady);
        degraded = List.copyOf(degraded);
        details = Details.copyOf(details);
    }

    public boolean ready() {
        return notReady.isEmpty();
    }
}
